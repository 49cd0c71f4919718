/**
 * The outputs a sweep's grid can show, for its "Output shown" choice: a workflow's output nodes (by
 * the title its file gives them, else their kind and id), or a model result's asset paths, in the
 * order the cells' runs first gave them. One choice or none: nothing to choose.
 */
import type { ApiPrompt } from '../../core/protocol/workflow-run';

export interface OutputChoice {
	source: string;
	label: string;
}

/** Each source once, in the order first seen, labelled for the menu. */
export function outputChoices(sources: Iterable<string>, label: (source: string) => string): OutputChoice[] {
	const seen = new Set<string>();
	const out: OutputChoice[] = [];
	for (const source of sources) {
		if (seen.has(source)) continue;
		seen.add(source);
		out.push({ source, label: label(source) });
	}
	return out;
}

/** A workflow's output node as a person knows it: its title, else its kind, with its id. */
export function nodeLabel(base: ApiPrompt, nodeId: string): string {
	const node = Object.hasOwn(base, nodeId) ? base[nodeId] : undefined;
	const name = node?._meta?.title ?? node?.class_type;
	return name ? `${name} #${nodeId}` : `Node ${nodeId}`;
}
