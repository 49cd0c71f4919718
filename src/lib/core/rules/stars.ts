/**
 * Which saved bytes a star keeps: every output of a starred run, and each starred output. A model
 * result's bytes are kept whole for any star on its run (its parts do not map one to one to assets).
 */
import { MODEL_BYTES_KEY, WORKFLOW_OUTPUT_KEY } from '../protocol/storage-keys';
import type { Star } from '../protocol/star';

/** The run whose saved bytes `key` holds (an `output:<run>:<index>` or `models:bytes:<run>:<part>` key), with a workflow output's index; null for any other key. */
export function bytesOwner(key: string): { runId: string; output: number | null } | null {
	if (key.startsWith(WORKFLOW_OUTPUT_KEY)) {
		const rest = key.slice(WORKFLOW_OUTPUT_KEY.length);
		const cut = rest.lastIndexOf(':');
		return cut < 0 ? null : { runId: rest.slice(0, cut), output: Number(rest.slice(cut + 1)) };
	}
	if (key.startsWith(MODEL_BYTES_KEY)) {
		const rest = key.slice(MODEL_BYTES_KEY.length);
		const cut = rest.indexOf(':');
		return { runId: cut < 0 ? rest : rest.slice(0, cut), output: null };
	}
	return null;
}

/** Whether the bytes under `key` (an `output:` or `models:bytes:` key) belong to something starred. */
export function keptByStars(key: string, stars: ReadonlyMap<string, Star>): boolean {
	const owner = bytesOwner(key);
	const star = owner ? stars.get(owner.runId) : undefined;
	if (!owner || !star) return false;
	return owner.output === null || star.run || star.outputs.includes(owner.output);
}

/** A star with an output added or taken away, or the run's own star set; null once nothing is starred. */
export function withStar(star: Star | undefined, runId: string, change: { output?: number; on: boolean }, now: number): Star | null {
	const base: Star = star ?? { runId, run: false, outputs: [], at: now };
	const next: Star =
		change.output === undefined
			? { ...base, run: change.on, at: now }
			: {
					...base,
					outputs: change.on
						? [...new Set([...base.outputs, change.output])].sort((a, b) => a - b)
						: base.outputs.filter((o) => o !== change.output),
					at: now
				};
	return next.run || next.outputs.length > 0 ? next : null;
}
