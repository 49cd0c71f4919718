/**
 * The search index of one worker: every run's search text (`sx:` records, written beside the
 * timeline entries as runs are saved), read in one range read at the first search, then kept in
 * step with saves and scanned (decision 0061: a plain scan of 100,000 texts beat the full-text
 * libraries on memory, load time and p95, and matches inside words). Texts sit in chunks of a
 * few hundred runs joined into one string, so a term is looked for with one `indexOf` pass per
 * chunk rather than one call per run. Texts are let go after a while without a search, so a tab
 * that is not searching holds none of them.
 */
import type { KeyValueStore } from '../../core/worker/kv-store';
import { SEARCH_TEXT_KEY as SEARCH_KEY } from '../../core/protocol/storage-keys';
import { findTerm, whereMatched, type SearchTerm } from '../rules/search-query';
import { SEARCH_FIELDS } from '../rules/search-doc';

export { SEARCH_KEY };

export interface SearchHit {
	id: string;
	/** What matched, where the row may not show it: "negative: …watermark". Only for the newest hits. */
	where?: string;
}

/** Hits described by `where` (the rest are listed without it): a screenful several times over. */
const WHERE_MAX = 300;
/** How long texts stay in memory after the last search. */
export const SEARCH_IDLE_MS = 5 * 60_000;
/** Runs per chunk: one string of about 100 KB, copied once when one of its runs changes. */
const CHUNK = 256;
/** Between runs in a chunk's string: a control character, which no term holds, so no match spans two runs. */
const SEPARATOR = '\u001e';

/** The run id in an `sx:<created at>:<id>` key (the same shape as the timeline's `tl:` keys). */
const idOfKey = (key: string) => key.slice(key.indexOf(':', SEARCH_KEY.length) + 1);

/**
 * A few hundred runs' texts as one string (each followed by the separator) and where each starts.
 * Only the joined string is kept, not the texts apart: a run's text is a slice of it.
 */
class Chunk {
	readonly ids: string[] = [];
	private text = '';
	/** Where each text starts in `text`, and (last) where the next would. */
	private starts: number[] = [0];

	get full(): boolean {
		return this.ids.length >= CHUNK;
	}

	get size(): number {
		return this.ids.length;
	}

	doc(at: number): string {
		return this.text.slice(this.starts[at], this.starts[at + 1]! - 1);
	}

	push(id: string, doc: string): number {
		this.ids.push(id);
		this.text += doc + SEPARATOR;
		this.starts.push(this.text.length);
		return this.ids.length - 1;
	}

	/** Puts `doc` in place of the text at `at` ('' for a deleted run). */
	replace(at: number, doc: string): void {
		const from = this.starts[at]!;
		const to = this.starts[at + 1]! - 1;
		this.text = this.text.slice(0, from) + doc + this.text.slice(to);
		const shift = doc.length - (to - from);
		for (let i = at + 1; i < this.starts.length; i++) this.starts[i]! += shift;
		if (doc === '') this.ids[at] = '';
	}

	/** Indexes of the texts holding `text` anywhere, in order: one pass over the joined string. */
	holding(text: string): number[] {
		const { text: all, starts } = this;
		const out: number[] = [];
		let doc = 0;
		for (let at = all.indexOf(text); at >= 0; at = all.indexOf(text, at)) {
			while (starts[doc + 1]! <= at) doc++;
			out.push(doc);
			at = starts[doc + 1]!; // one hit per text is enough
			doc++;
		}
		return out;
	}
}

interface Loaded {
	chunks: Chunk[];
	/** Where each run's text is: chunk index * CHUNK + place in the chunk. */
	slot: Map<string, number>;
}

export class SearchIndex {
	private loaded: Loaded | undefined;
	private loading: Promise<Loaded> | undefined;
	private idleTimer: ReturnType<typeof setTimeout> | undefined;
	/** Saves and deletes that happened while the texts were being read: applied over what was read. */
	private readonly during: Array<[string, string | null]> = [];

	constructor(
		private readonly kv: KeyValueStore,
		private readonly idleMs = SEARCH_IDLE_MS
	) {}

	/** Whether the texts are in memory now (for tests and the bench). */
	get inMemory(): boolean {
		return this.loaded !== undefined;
	}

	/** Reads every text once (keys sort by creation, so they load oldest first); a failed read is tried again next time. */
	private load(): Promise<Loaded> {
		if (this.loaded) return Promise.resolve(this.loaded);
		this.loading ??= this.kv.entries<string>(SEARCH_KEY).then(
			(rows) => {
				const loaded: Loaded = { chunks: [], slot: new Map() };
				for (const [key, doc] of rows) if (typeof doc === 'string') this.place(loaded, idOfKey(key), doc);
				for (const [id, doc] of this.during.splice(0)) {
					if (doc === null) this.drop(loaded, id);
					else this.place(loaded, id, doc);
				}
				this.loaded = loaded;
				this.loading = undefined;
				return loaded;
			},
			(error: unknown) => {
				this.loading = undefined;
				this.during.length = 0;
				throw error;
			}
		);
		return this.loading;
	}

	private place(into: Loaded, id: string, doc: string): void {
		const slot = into.slot.get(id);
		if (slot !== undefined) {
			into.chunks[Math.floor(slot / CHUNK)]!.replace(slot % CHUNK, doc);
			return;
		}
		let last = into.chunks.at(-1);
		if (!last || last.full) into.chunks.push((last = new Chunk()));
		const at = last.push(id, doc);
		into.slot.set(id, (into.chunks.length - 1) * CHUNK + at);
	}

	private drop(from: Loaded, id: string): void {
		const slot = from.slot.get(id);
		if (slot === undefined) return;
		from.slot.delete(id);
		from.chunks[Math.floor(slot / CHUNK)]!.replace(slot % CHUNK, '');
	}

	/** A run's text was saved: kept in step when the texts are in memory, else read at the next search. */
	saved(id: string, doc: string): void {
		if (this.loaded) this.place(this.loaded, id, doc);
		else if (this.loading) this.during.push([id, doc]);
	}

	removed(id: string): void {
		if (this.loaded) this.drop(this.loaded, id);
		else if (this.loading) this.during.push([id, null]);
	}

	/** Ids of runs saved before texts were kept, whose text is missing (a one-time repair, by the timeline service). */
	async missing(ids: Iterable<string>): Promise<string[]> {
		const loaded = await this.load();
		return [...ids].filter((id) => !loaded.slot.has(id));
	}

	/**
	 * Runs whose text has every term, newest first. `alternatives` adds, per term (by index), other
	 * texts that also count as that term found: a profile name's term finds its runs by profile id.
	 */
	async search(terms: readonly SearchTerm[], alternatives: ReadonlyMap<number, readonly string[]> = new Map()): Promise<SearchHit[]> {
		const { chunks } = await this.load();
		this.touch();
		if (terms.length === 0) return [];
		// The longest term without alternatives narrows each chunk in one pass; the others are checked per run.
		const lead = terms
			.map((term, t) => ({ term, t }))
			.filter(({ t }) => !alternatives.has(t))
			.sort((a, b) => b.term.text.length - a.term.text.length)[0];
		const profileLead = `\n${SEARCH_FIELDS.profile}`;
		const has = (doc: string, t: number): boolean => {
			if (findTerm(doc, terms[t]!) >= 0) return true;
			const others = alternatives.get(t);
			return others !== undefined && others.some((id) => doc.includes(`${profileLead}${id}\n`) || doc.endsWith(`${profileLead}${id}`));
		};
		const hits: SearchHit[] = [];
		for (let c = chunks.length - 1; c >= 0; c--) {
			const chunk = chunks[c]!;
			const candidates = lead ? chunk.holding(lead.term.text) : Array.from({ length: chunk.size }, (_, i) => i);
			for (let k = candidates.length - 1; k >= 0; k--) {
				const i = candidates[k]!;
				const doc = chunk.doc(i);
				if (doc === '') continue;
				let all = true;
				for (let t = 0; t < terms.length && all; t++) if (t !== lead?.t || lead.term.field !== null) all = has(doc, t);
				if (!all) continue;
				const id = chunk.ids[i]!;
				const where = hits.length < WHERE_MAX ? whereMatched(doc, terms) : null;
				hits.push(where ? { id, where: `${where.field}: ${where.excerpt}` } : { id });
			}
		}
		return hits;
	}

	/** Lets the texts go after a while without a search; the next search reads them again. */
	private touch(): void {
		if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
		this.idleTimer = setTimeout(() => {
			this.loaded = undefined;
			this.idleTimer = undefined;
		}, this.idleMs);
		// Node (tests, the bench) would otherwise wait for it before exiting.
		(this.idleTimer as { unref?: () => void }).unref?.();
	}

	dispose(): void {
		if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
		this.loaded = undefined;
	}
}
