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
	/** Only runs started within this many days (1: the last 24 hours). */
	days: number | null;
	/** Only starred runs, or runs with a starred output. */
	starred: boolean;
}

export const NO_FILTER: TimelineFilter = { profileId: null, kind: null, status: null, text: '', days: null, starred: false };

/** What the filter needs beyond the entries: the worker's search answer, the stars, the time. */
export interface FilterContext {
	/** Runs the worker's search found for `filter.text`; absent while it has not answered (the entries' words are matched meanwhile). */
	found?: ReadonlySet<string>;
	/** When the search was sent: runs made since are matched by their entry's own words until it is asked again. */
	foundAt?: number;
	starred?: ReadonlySet<string>;
	now?: number;
}
const DAY_MS = 86_400_000;
const OPEN = new Set<TimelineStatus>(['submitting', 'queued', 'running']);

export function isOpen(entry: Pick<TimelineEntry, 'status'>): boolean {
	return OPEN.has(entry.status);
}

/**
 * Newest first, matching every part of the filter; text matches title, model/workflow or what was asked.
 * A run a pool moved to another member is neither failed nor cancelled: the run it became stands for it.
 */
export function filterTimeline(entries: readonly TimelineEntry[], filter: TimelineFilter, context: FilterContext = {}): TimelineEntry[] {
	const text = filter.text.trim().toLowerCase();
	const found = text === '' ? undefined : context.found;
	const since = filter.days === null ? null : (context.now ?? Date.now()) - filter.days * DAY_MS;
	return entries
		.filter(
			(e) =>
				(filter.profileId === null || e.profileId === filter.profileId) &&
				(filter.kind === null || e.kind === filter.kind) &&
				(filter.status === null ||
					(filter.status === 'open'
						? isOpen(e)
						: filter.status === 'failed'
							? !e.movedTo && (e.status === 'failed' || e.status === 'unknown' || e.status === 'lost')
							: filter.status === 'cancelled'
								? !e.movedTo && (e.status === 'cancelled' || e.status === 'interrupted')
								: e.status === filter.status)) &&
				(since === null || e.createdAt >= since) &&
				(!filter.starred || context.starred?.has(e.id) === true) &&
				(found && !(context.foundAt !== undefined && e.createdAt >= context.foundAt)
					? found.has(e.id)
					: text === '' ||
						e.title.toLowerCase().includes(text) ||
						(e.subject ?? '').toLowerCase().includes(text) ||
						(e.asked ?? '').toLowerCase().includes(text))
		)
		.sort((a, b) => b.createdAt - a.createdAt);
}

/** Ended cells that did not all end alike: the one that needs a look first names the sweep. */
const WORST_FIRST: readonly AnyRunStatus[] = ['failed', 'lost', 'interrupted', 'cancelled', 'unknown'];

/** A sweep's status from its cells: running while any is open, else what they all are, else its worst. */
function sweepStatus(cells: readonly TimelineEntry[]): AnyRunStatus {
	if (cells.some(isOpen)) return 'running';
	const first = cells[0]!.status;
	if (cells.every((c) => c.status === first)) return first;
	return WORST_FIRST.find((status) => cells.some((c) => c.status === status)) ?? first;
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
		// No prompt words: the row's title says it is a sweep.
		const { asked: _asked, ...rest } = first;
		out.push({
			...rest,
			title: `Sweep: ${first.title} (${group.length} run${group.length === 1 ? '' : 's'})`,
			status: sweepStatus(group),
			href: `/sweeps/${sweepId}`,
			cellIds: group.map((e) => e.id)
		});
	}
	return out;
}
