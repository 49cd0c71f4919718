/**
 * A chunk of search texts as IndexedDB holds it, `sc:<created at>:<id>` (the timeline key of its
 * last run under the chunk prefix), and the one place it is read back. A chunk holds the texts of
 * every run whose timeline key is in `(after, to]`; it is read at the first search instead of
 * thousands of entries (decision 0061). A chunk written as `null` is a tombstone: a run in it changed.
 */
import { SEARCH_TEXT_MAX, SEARCH_TEXT_SEPARATOR as SEPARATOR } from '../../core/rules/timeline-record';

export interface SearchChunk {
	/** The timeline key before the first the chunk covers ('tl:' for the oldest). */
	after: string;
	/** The last timeline key it covers (its own key is this one under the chunk prefix). */
	to: string;
	ids: string[];
	/** The runs' texts in the order of `ids`, joined by the separator: kept as one string in memory too. */
	texts: string;
}

/** A chunk as stored: ids and texts each joined by the separator, so a read makes two strings, not hundreds. */
interface StoredChunk {
	after: string;
	to: string;
	ids: string;
	texts: string;
}

export const storedChunk = (chunk: SearchChunk): StoredChunk => ({ ...chunk, ids: chunk.ids.join(SEPARATOR) });

const RUNS_PER_CHUNK_MAX = 10_000;

/**
 * A stored chunk, or null when it is a tombstone or cannot be one (its runs are then read from
 * their entries). `timelineKey` is the key it is stored under, turned back into a timeline key: its `to`.
 */
export function readSearchChunk(value: unknown, timelineKey: string): SearchChunk | null {
	if (typeof value !== 'object' || value === null) return null;
	const { after, to, ids, texts } = value as Record<string, unknown>;
	if (typeof after !== 'string' || typeof to !== 'string' || typeof ids !== 'string' || typeof texts !== 'string') return null;
	if (to !== timelineKey || !(after < to) || texts.length > SEARCH_TEXT_MAX * RUNS_PER_CHUNK_MAX) return null;
	if (ids === '') return texts === '' ? { after, to, ids: [], texts } : null;
	const idList = ids.split(SEPARATOR);
	if (idList.length > RUNS_PER_CHUNK_MAX || idList.some((id) => id === '')) return null;
	let separators = 0;
	for (let at = texts.indexOf(SEPARATOR); at >= 0; at = texts.indexOf(SEPARATOR, at + 1)) separators++;
	return separators === idList.length - 1 ? { after, to, ids: idList, texts } : null;
}
