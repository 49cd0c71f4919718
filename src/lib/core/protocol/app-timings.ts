/**
 * The app's own timers, settable through the runtime config's optional `timings` object so tests
 * can shorten them (Playwright's page clock does not reach the worker). The product keeps the
 * defaults: a config without `timings`, or a key left out, means the default.
 */
import { isObject, own } from './json';

export interface AppTimings {
	/** How long a delete can be undone before the runs are deleted for real. */
	undoMs: number;
	/** How long past the undo window another tab waits for "gone" before showing the runs again. */
	undoGraceMs: number;
	/** How often open workflow runs are polled (the source of truth beside the socket). */
	workflowPollMs: number;
	/** How often the active profile's queue is read for jobs started elsewhere. */
	queueWatchMs: number;
	/** How often one queue read checks all open runs of a profile whose socket is open and healthy. */
	liveQueueEveryMs: number;
}

export const DEFAULT_TIMINGS: Readonly<AppTimings> = {
	undoMs: 5000,
	undoGraceMs: 3000,
	workflowPollMs: 2000,
	queueWatchMs: 5000,
	liveQueueEveryMs: 20_000
};

/** What the page needs of the timings: the undo window of deletes (the worker runs the rest). */
export interface UndoWindow {
	ms: number;
	graceMs: number;
}

export const undoWindow = (timings: AppTimings): UndoWindow => ({ ms: timings.undoMs, graceMs: timings.undoGraceMs });

/** An hour: longer is surely a typo, and a timer that never fires looks like a hang. */
export const MAX_TIMING_MS = 3_600_000;

const KEYS = Object.keys(DEFAULT_TIMINGS) as Array<keyof AppTimings>;

export type ParseTimingsResult = { ok: true; timings: AppTimings } | { ok: false; message: string };

/** `raw` is the config's `timings` value; `where` names it in a message (e.g. the config's path). */
export function parseTimings(raw: unknown, where: string): ParseTimingsResult {
	if (raw === undefined || raw === null) return { ok: true, timings: { ...DEFAULT_TIMINGS } };
	if (!isObject(raw)) return { ok: false, message: `${where}: "timings" must be an object of milliseconds` };
	const timings = { ...DEFAULT_TIMINGS };
	for (const key of KEYS) {
		const value = own(raw, key);
		if (value === undefined) continue;
		if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMING_MS)
			return {
				ok: false,
				message: `${where}: timings.${key} must be a whole number of milliseconds from 1 to ${MAX_TIMING_MS} (got ${JSON.stringify(value)})`
			};
		timings[key] = value;
	}
	return { ok: true, timings };
}
