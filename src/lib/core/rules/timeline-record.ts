/**
 * A run's timeline entry as IndexedDB holds it, `tl:<created at>:<id>`, and the one place it is
 * read back: stored records are untrusted (another version, another tab or a bug may have written
 * them). Once the run has ended, the entry carries its search text (`timeline/rules/search-doc.ts`)
 * in `searchText`, so saving it writes one record (decision 0061); the worker drops it before
 * entries reach the page. Entries of runs under way, and entries written before the text was folded
 * in, have none: their text is under `sx:` or is made from the run.
 */
import type { TimelineEntry } from '../protocol/run-kernel';

/** Between texts (and ids) in a chunk of search texts: a control character no search text holds. */
export const SEARCH_TEXT_SEPARATOR = '\u001e';
/** A search text is at most 200 values of 1000 characters (`search-doc.ts`), with room for line codes. */
export const SEARCH_TEXT_MAX = 210_000;

export type StoredEntry = TimelineEntry & { searchText?: string };

export interface TimelineRecord {
	entry: TimelineEntry;
	/** The run's search text; null in an entry written before texts were folded in. */
	text: string | null;
}

/** What a save writes under the run's timeline key. */
export const storedEntry = (entry: TimelineEntry, text: string): StoredEntry => ({ ...entry, searchText: text });

const isSearchText = (value: unknown): value is string =>
	typeof value === 'string' && value.length <= SEARCH_TEXT_MAX && !value.includes(SEARCH_TEXT_SEPARATOR);
/**
 * A stored timeline entry, read as loosely as entries of older versions need (the fields the list
 * and search rely on are checked), without its search text; null when it cannot be one.
 */
export function readTimelineRecord(value: unknown): TimelineRecord | null {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
	const record = value as Record<string, unknown>;
	if (
		typeof record['id'] !== 'string' ||
		record['id'] === '' ||
		(record['kind'] !== 'workflow' && record['kind'] !== 'model') ||
		typeof record['createdAt'] !== 'number' ||
		!Number.isFinite(record['createdAt']) ||
		typeof record['profileId'] !== 'string' ||
		typeof record['status'] !== 'string'
	)
		return null;
	const { searchText, ...entry } = record;
	return { entry: entry as unknown as TimelineEntry, text: isSearchText(searchText) ? searchText : null };
}
