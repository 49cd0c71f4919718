/**
 * A search as typed, read into terms, and matched against a run's search text (`search-doc.ts`):
 * every term must be found (AND), anywhere in a word (so `xl` finds `sdxl`, `1234` a seed), or, as
 * `field:words`, only in that field. `"a red boat"` keeps its words together. Pure.
 */
import { FIELD_OF_CODE, normalizeSearchText, SEARCH_FIELDS, type SearchField } from './search-doc';

export interface SearchTerm {
	/** Lower-cased words to find; never empty, never holding a control character. */
	text: string;
	field: SearchField | null;
}

/** A query longer than this is cut: search stays linear in what a person could mean. */
export const QUERY_MAX = 200;
export const TERMS_MAX = 12;

/** Words and `field:words`; quotes keep words together. */
export function parseQuery(query: string): SearchTerm[] {
	const terms: SearchTerm[] = [];
	const pattern = /(?:(\w+):)?(?:"([^"]*)"?|(\S+))/g;
	for (const match of query.slice(0, QUERY_MAX).matchAll(pattern)) {
		if (terms.length >= TERMS_MAX) break;
		const name = match[1]?.toLowerCase();
		const field = name && Object.hasOwn(SEARCH_FIELDS, name) ? (name as SearchField) : null;
		// An unknown `word:` stays part of the word (a time, `a:b`).
		const raw = field === null && match[1] !== undefined ? `${match[1]}:${match[2] ?? match[3] ?? ''}` : (match[2] ?? match[3] ?? '');
		const text = normalizeSearchText(raw);
		if (text !== '') terms.push({ text, field });
	}
	return terms;
}

/** Where `term` is in `doc`: the index of its first match, or -1. */
export function findTerm(doc: string, term: SearchTerm): number {
	if (term.field === null) return doc.indexOf(term.text);
	const lead = `\n${SEARCH_FIELDS[term.field]}`;
	for (let at = doc.indexOf(lead); at >= 0; at = doc.indexOf(lead, at + 1)) {
		const end = doc.indexOf('\n', at + 1);
		const found = doc.indexOf(term.text, at + 2);
		if (found >= 0 && (end < 0 || found + term.text.length <= end)) return found;
	}
	return -1;
}

/** Every term is in the doc. */
export function matchesAll(doc: string, terms: readonly SearchTerm[]): boolean {
	for (const term of terms) if (findTerm(doc, term) < 0) return false;
	return true;
}

/** Words shown around a match, each side. */
const AROUND = 28;

/** What a hit matched, for a row whose visible words do not show it: "negative: …blurry, watermark". */
export function whereMatched(doc: string, terms: readonly SearchTerm[]): { field: SearchField; excerpt: string } | null {
	const term = terms[0];
	if (!term) return null;
	const at = findTerm(doc, term);
	if (at < 0) return null;
	const start = doc.lastIndexOf('\n', at) + 1;
	const endAt = doc.indexOf('\n', at);
	const end = endAt < 0 ? doc.length : endAt;
	const field = FIELD_OF_CODE.get(doc[start] ?? '');
	if (!field) return null;
	const from = Math.max(start + 1, at - AROUND);
	const to = Math.min(end, at + term.text.length + AROUND);
	return { field, excerpt: `${from > start + 1 ? '…' : ''}${doc.slice(from, to)}${to < end ? '…' : ''}` };
}

export interface MarkedPart {
	text: string;
	marked: boolean;
}

/** `text` cut into parts, those matching a term marked, for showing a hit with its words highlighted. */
export function markParts(text: string, words: readonly string[]): MarkedPart[] {
	const lower = text.toLowerCase();
	// Lower-casing keeps lengths for the text people type; where it does not, nothing is marked.
	if (lower.length !== text.length || words.length === 0) return [{ text, marked: false }];
	const marked = new Uint8Array(text.length);
	for (const word of words) {
		if (word === '') continue;
		for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + word.length)) marked.fill(1, at, at + word.length);
	}
	const parts: MarkedPart[] = [];
	let from = 0;
	for (let i = 1; i <= text.length; i++) {
		if (i === text.length || marked[i] !== marked[from]) {
			parts.push({ text: text.slice(from, i), marked: marked[from] === 1 });
			from = i;
		}
	}
	return parts.length > 0 ? parts : [{ text, marked: false }];
}
