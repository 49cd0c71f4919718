/**
 * The search index of one worker: every run's search text (`sx:` records, written beside the
 * timeline entries as runs are saved), read in one range read at the first search, then kept in
 * step with saves and scanned (decision 0061: a plain scan of 100,000 texts beat the full-text
 * libraries on memory and matched inside words, at a p95 well under the 100 ms target). Texts are
 * let go after a while without a search, so a tab that is not searching holds none of them.
 */
import type { KeyValueStore } from '../../core/worker/kv-store';
import { findTerm, whereMatched, type SearchTerm } from '../rules/search-query';
import { SEARCH_FIELDS } from '../rules/search-doc';
import { SEARCH_TEXT_KEY as SEARCH_KEY } from '../../core/protocol/storage-keys';

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

/** The run id in an `sx:<created at>:<id>` key (the same shape as the timeline's `tl:` keys). */
const idOfKey = (key: string) => key.slice(key.indexOf(':', SEARCH_KEY.length) + 1);

interface Loaded {
	ids: string[];
	docs: string[];
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
				const loaded: Loaded = { ids: [], docs: [], slot: new Map() };
				for (const [key, doc] of rows) if (typeof doc === 'string') this.place(loaded, idOfKey(key), doc);
				for (const [id, doc] of this.during.splice(0)) if (doc === null) this.drop(loaded, id);
				else this.place(loaded, id, doc);
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
		const at = into.slot.get(id);
		if (at !== undefined) into.docs[at] = doc;
		else {
			into.slot.set(id, into.ids.length);
			into.ids.push(id);
			into.docs.push(doc);
		}
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

	private drop(from: Loaded, id: string): void {
		const at = from.slot.get(id);
		if (at === undefined) return;
		from.slot.delete(id);
		from.ids[at] = '';
		from.docs[at] = '';
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
		const { ids, docs } = await this.load();
		this.touch();
		const hits: SearchHit[] = [];
		const profileLead = `\n${SEARCH_FIELDS.profile}`;
		for (let i = docs.length - 1; i >= 0; i--) {
			const doc = docs[i]!;
			if (doc === '') continue;
			let all = true;
			for (let t = 0; t < terms.length && all; t++) {
				if (findTerm(doc, terms[t]!) >= 0) continue;
				const others = alternatives.get(t);
				all = others !== undefined && others.some((profileId) => doc.includes(`${profileLead}${profileId}\n`) || doc.endsWith(`${profileLead}${profileId}`));
			}
			if (!all) continue;
			if (hits.length < WHERE_MAX) {
				const where = whereMatched(doc, terms);
				hits.push(where ? { id: ids[i]!, where: `${where.field}: ${where.excerpt}` } : { id: ids[i]! });
			} else hits.push({ id: ids[i]! });
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
