/**
 * The Runs timeline's filters over the run kernel's entries (`core/protocol/run-kernel.ts`, made by
 * `core/rules/run-entry.ts`), so ten thousand of them filter fast.
 */
import type { AnyRunStatus, RunKind, TimelineEntry } from '../../core/protocol/run-kernel';

export type { FirstOutput, TimelineEntry } from '../../core/protocol/run-kernel';
export type TimelineKind = RunKind;
export type TimelineStatus = AnyRunStatus;

export interface TimelineFilter {
	profileId: string | null;
	kind: TimelineKind | null;
	status: 'open' | 'succeeded' | 'failed' | 'cancelled' | null;
	text: string;
}

export const NO_FILTER: TimelineFilter = { profileId: null, kind: null, status: null, text: '' };
const OPEN = new Set<TimelineStatus>(['submitting', 'queued', 'running']);

export function isOpen(entry: Pick<TimelineEntry, 'status'>): boolean {
	return OPEN.has(entry.status);
}

/** Newest first, matching every part of the filter; text matches title, model/workflow or what was asked. */
export function filterTimeline(entries: readonly TimelineEntry[], filter: TimelineFilter): TimelineEntry[] {
	const text = filter.text.trim().toLowerCase();
	return entries
		.filter(
			(e) =>
				(filter.profileId === null || e.profileId === filter.profileId) &&
				(filter.kind === null || e.kind === filter.kind) &&
				(filter.status === null ||
					(filter.status === 'open'
						? isOpen(e)
						: filter.status === 'failed'
							? e.status === 'failed' || e.status === 'unknown' || e.status === 'lost'
							: filter.status === 'cancelled'
								? e.status === 'cancelled' || e.status === 'interrupted'
								: e.status === filter.status)) &&
				(text === '' ||
					e.title.toLowerCase().includes(text) ||
					(e.subject ?? '').toLowerCase().includes(text) ||
					(e.asked ?? '').toLowerCase().includes(text))
		)
		.sort((a, b) => b.createdAt - a.createdAt);
}

/**
 * A sweep's cells as one entry that opens its grid: the first cell stands for them, titled with the
 * count, open while any cell is. Runs outside sweeps pass through.
 */
export function collapseSweeps(entries: readonly TimelineEntry[]): TimelineEntry[] {
	const cells = new Map<string, TimelineEntry[]>();
	const out: TimelineEntry[] = [];
	for (const e of entries) {
		if (!e.sweepId) out.push(e);
		else cells.set(e.sweepId, [...(cells.get(e.sweepId) ?? []), e]);
	}
	for (const [sweepId, group] of cells) {
		const first = group.reduce((a, b) => (b.createdAt < a.createdAt ? b : a));
		const open = group.some(isOpen);
		// No prompt words: the row's title says it is a sweep.
		const { asked: _asked, ...rest } = first;
		out.push({
			...rest,
			title: `Sweep: ${first.title} (${group.length} run${group.length === 1 ? '' : 's'})`,
			status: open ? 'running' : first.status,
			href: `/sweeps/${sweepId}`
		});
	}
	return out;
}
