/** The Runs timeline part of the worker API. */
import type { TimelineEntry } from '../../domain/timeline';

export interface TimelineApi {
	/** Newest first; with `limit`, only the newest entries, read without scanning the rest. */
	timeline(input: { limit?: number }): Promise<TimelineEntry[]>;
}
