/** How long a queued run may wait, from recent durations of the same workflow and its queue position. */

import type { TimelineEntry } from '../protocol/run-kernel';

export { formatDuration } from './duration-words';

export interface EtaInput {
	/** Jobs ahead of this one (0 = next to start). */
	position: number;
	/** Durations in ms of recent finished runs of the same workflow or model, newest first. */
	recentDurations: number[];
	/** How many jobs run at once (the tier); at least 1. */
	concurrency?: number;
}

/** Milliseconds until this run is likely done, or undefined when nothing is known to estimate from. */
export function estimateRemaining({ position, recentDurations, concurrency = 1 }: EtaInput): number | undefined {
	const sample = recentDurations.filter((d) => Number.isFinite(d) && d > 0).slice(0, 10);
	if (sample.length === 0) return undefined;
	const sorted = [...sample].sort((a, b) => a - b);
	// The median resists one run that hung or was cached.
	const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
	const rounds = Math.floor(Math.max(0, position) / Math.max(1, concurrency)) + 1;
	return Math.round(median * rounds);
}

/** Where a job stands in a queue: 0 when it runs or is next, the jobs ahead of it, or null when it is not listed. */
export function queuePosition(
	queue: { running: ReadonlyArray<{ promptId: string }>; pending: ReadonlyArray<{ promptId: string }> },
	promptId: string
): number | null {
	const index = queue.pending.findIndex((e) => e.promptId === promptId);
	if (index >= 0) return index + queue.running.length;
	return queue.running.some((e) => e.promptId === promptId) ? 0 : null;
}

/** Durations of recent successful runs of the same workflow (by id, or by title for a run without one), newest first. */
export function recentWorkflowDurations(
	entries: Iterable<TimelineEntry>,
	run: { id: string; workflowId?: string | null | undefined; title: string }
): number[] {
	return [...entries]
		.filter(
			(e) =>
				e.kind === 'workflow' &&
				e.id !== run.id &&
				e.status === 'succeeded' &&
				e.durationMs !== null &&
				(run.workflowId ? e.subject === run.workflowId : e.title === run.title)
		)
		.sort((a, b) => b.createdAt - a.createdAt)
		.map((e) => e.durationMs!);
}

/** Durations of recent successful runs of one workflow or model (by kind and subject), newest first. */
export function recentDurations(entries: Iterable<TimelineEntry>, kind: TimelineEntry['kind'], subject: string): number[] {
	return [...entries]
		.filter((e) => e.kind === kind && e.subject === subject && e.status === 'succeeded' && e.durationMs !== null)
		.sort((a, b) => b.createdAt - a.createdAt)
		.map((e) => e.durationMs!);
}
