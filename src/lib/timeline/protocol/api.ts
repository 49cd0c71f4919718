/** The Runs timeline part of the worker API. */
import type { TimelineEntry } from '../../core/protocol/run-kernel';

export interface TimelineApi {
	/** Newest first; with `limit`, only the newest entries, read without scanning the rest. */
	timeline(input: { limit?: number }): Promise<TimelineEntry[]>;
	/**
	 * Deletes finished runs of either kind in one transaction (record, indexes, bytes, entry): a
	 * reload meanwhile leaves all of them or none. Unfinished runs are kept and listed.
	 */
	deleteRuns(input: { ids: string[] }): Promise<{ deleted: string[]; kept: string[] }>;
}
