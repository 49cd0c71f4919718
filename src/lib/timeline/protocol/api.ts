/** The Runs timeline part of the worker API. */
import type { TimelineEntry } from '../../core/protocol/run-kernel';
import type { Star } from '../../core/protocol/star';

export type { Star };

/** Runs found by a search, newest first, with the words to mark in them. */
export interface RunSearch {
	hits: Array<{ id: string; where?: string }>;
	/** The query's words as matched (lower case), for marking them in what a row shows. */
	words: string[];
	/** How long the worker took, for the bench and the page's own "found in". */
	ms: number;
	/** The timeline entries of the newest hits, as many as asked for: shown while the page's list is still loading. */
	entries: TimelineEntry[];
}

export interface TimelineApi {
	/** Newest first; with `limit`, only the newest entries, read without scanning the rest. */
	timeline(input: { limit?: number }): Promise<TimelineEntry[]>;
	/**
	 * Deletes finished runs of either kind in one transaction (record, indexes, bytes, entry): a
	 * reload meanwhile leaves all of them or none. Unfinished runs are kept and listed.
	 */
	deleteRuns(input: { ids: string[] }): Promise<{ deleted: string[]; kept: string[] }>;
	/** Every run of every profile whose saved inputs, outputs, status, date or profile match the query. */
	searchRuns(input: { query: string; entries?: number }): Promise<RunSearch>;
	/** Reads the search texts ahead of a first search (the Runs page, once its first screenful is shown). */
	prepareSearch(input: Record<string, never>): Promise<void>;
	/** Every starred run (or run with starred outputs). */
	stars(input: Record<string, never>): Promise<Star[]>;
	/** Stars or unstars a run (no `output`) or one output of it; gives what is starred of the run now (null: nothing). */
	setStar(input: { runId: string; output?: number; on: boolean }): Promise<Star | null>;
}
