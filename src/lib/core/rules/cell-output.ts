/**
 * Which output of a run a grid cell shows, and the words under it. A run may have several outputs
 * (several output nodes, a batch, a model's assets): the grid shows the first from the source the
 * person picked (a workflow's output node, a model result's asset path), else the run's first, and
 * counts the rest.
 */
import { formatDuration } from './duration-words';

export interface CellOutputOption<T> {
	/** Where it comes from: a node id, an asset's path. */
	source: string;
	output: T;
}

/** The index of the output to show: the first from `picked`, else the first at all; -1 when none can be shown. */
export function shownOutput<T>(outputs: ReadonlyArray<CellOutputOption<T>>, picked: string | null): number {
	if (picked !== null) {
		const index = outputs.findIndex((o) => o.source === picked);
		if (index >= 0) return index;
	}
	return outputs.length > 0 ? 0 : -1;
}

/** "seed 3 · 4.2 s · +2 more": the cell's seed, how long its run took, and how many outputs are not shown. */
export function cellFactsLine(facts: { seed: unknown; durationMs: number | null; others: number }): string {
	const parts = [
		facts.seed !== undefined && facts.seed !== null ? `seed ${String(facts.seed)}` : '',
		facts.durationMs !== null ? formatDuration(facts.durationMs) : '',
		facts.others > 0 ? `+${facts.others} more` : ''
	];
	return parts.filter(Boolean).join(' · ');
}

/**
 * What a grid cell has of its output to show: an address of bytes (the output itself, an image's
 * thumbnail, or a video's poster, whose video comes on demand), or the words saying why a video has
 * no poster.
 */
export type CellShown = { url: string; from: 'output' | 'thumbnail' | 'poster' } | { from: 'no-poster'; problem: string };
