/**
 * A chunk of search texts as IndexedDB holds it, `sc:<created at>:<id>` (the timeline key of its
 * last run under the chunk prefix), and the one place it is read back. A chunk holds the texts of
 * every run whose timeline key is in `(after, to]`; it is read at the first search instead of
 * thousands of entries (decision 0061). A chunk written as `null` is a tombstone: a run in it changed.
 */
import { SEARCH_TEXT_MAX, SEARCH_TEXT_SEPARATOR as SEPARATOR } from '../../core/rules/timeline-record';
import { TIMELINE_KEY } from '../../core/protocol/storage-keys';

export interface SearchChunk {
	/** The timeline key before the first the chunk covers ('tl:' for the oldest). */
	after: string;
	/** The last timeline key it covers (its own key is this one under the chunk prefix). */
	to: string;
	ids: string[];
	/**
	 * The runs' timeline keys, in the order of `ids`: a search while the Runs list loads reads its
	 * newest hits' entries by them, without reading all 100,000 keys first. Chunks written before
	 * keys were kept have none.
	 */
	keys?: string[];
	/** The runs' texts in the order of `ids`, joined by the separator: kept as one string in memory too. */
	texts: string;
}

/** A chunk as stored: keys (or, written by an older version, ids) and texts each joined by the separator, so a read makes two strings, not hundreds. */
interface StoredChunk {
	after: string;
	to: string;
	ids?: string;
	keys?: string;
	texts: string;
}

export const storedChunk = ({ ids, keys, ...rest }: SearchChunk): StoredChunk =>
	keys ? { ...rest, keys: keys.join(SEPARATOR) } : { ...rest, ids: ids.join(SEPARATOR) };

const RUNS_PER_CHUNK_MAX = 10_000;
/** Where the id starts in a timeline key, `tl:<13 digits>:<id>`. */
const ID_AT = TIMELINE_KEY.length + 14;

/**
 * A stored chunk, or null when it is a tombstone or cannot be one (its runs are then read from
 * their entries). `timelineKey` is the key it is stored under, turned back into a timeline key: its `to`.
 */
export function readSearchChunk(value: unknown, timelineKey: string): SearchChunk | null {
	if (typeof value !== 'object' || value === null) return null;
	const { after, to, ids, keys, texts } = value as Record<string, unknown>;
	if (typeof after !== 'string' || typeof to !== 'string' || typeof texts !== 'string') return null;
	if (to !== timelineKey || !(after < to) || texts.length > SEARCH_TEXT_MAX * RUNS_PER_CHUNK_MAX) return null;
	const joined = typeof keys === 'string' ? keys : typeof ids === 'string' ? ids : null;
	if (joined === null) return null;
	if (joined === '') return texts === '' ? { after, to, ids: [], ...(typeof keys === 'string' ? { keys: [] } : {}), texts } : null;
	const list = joined.split(SEPARATOR);
	if (list.length > RUNS_PER_CHUNK_MAX) return null;
	let separators = 0;
	for (let at = texts.indexOf(SEPARATOR); at >= 0; at = texts.indexOf(SEPARATOR, at + 1)) separators++;
	if (separators !== list.length - 1) return null;
	if (typeof keys !== 'string') return list.some((id) => id === '') ? null : { after, to, ids: list, texts };
	// Keys in order, inside the chunk's range, each of the timeline's shape with an id.
	let before = after;
	for (const key of list) {
		if (!(key > before && key <= to) || key.length <= ID_AT || key[ID_AT - 1] !== ':') return null;
		before = key;
	}
	return { after, to, ids: list.map((key) => key.slice(ID_AT)), keys: list, texts };
}
