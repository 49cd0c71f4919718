/**
 * The search index of one worker: every run's search text, scanned (decision 0061: a plain scan of
 * 100,000 texts beat the full-text libraries on memory, load time and p95, and matches inside
 * words). Texts sit in chunks of a hundred runs joined into one string, so a term is looked for
 * with one `indexOf` pass per chunk rather than one call per run.
 *
 * Where the texts are stored: a run's in its timeline entry once it has ended (the saves of its end
 * write it; the saves while it is under way write none), and once a day old in a chunk record of a
 * hundred runs (`sc:`), written here in the background after a search, its entry then written
 * again without it (the Runs list reads every entry at each load: a text in each made that read
 * half as long again). The first search after a reload reads the chunks (hundreds of records) and
 * only the entries no chunk covers (the last day's runs, and a chunk a change to an old run struck
 * out), not 100,000 entries; the runs among them whose entry holds no text (under way, or struck
 * out of a chunk) have it made from their records by the timeline service. Texts are let go after
 * a while without a search, so a tab that is not searching holds none of them.
 */
import type { KeyValueStore } from '../../core/worker/kv-store';
import { SEARCH_CHUNK_KEY, SEARCH_TEXT_KEY, TIMELINE_KEY } from '../../core/protocol/storage-keys';
import { findTerm, whereMatched, type SearchTerm } from '../rules/search-query';
import { SEARCH_FIELDS } from '../rules/search-doc';
import { readSearchChunk, storedChunk, type SearchChunk } from '../rules/search-chunk';
import { readTimelineRecord, SEARCH_TEXT_SEPARATOR as SEPARATOR } from '../../core/rules/timeline-record';
import type { TimelineEntry } from '../../core/protocol/run-kernel';
import { isUnderWay } from '../../core/rules/run-under-way';
import { span, traced } from './search-trace';

export interface SearchHit {
	id: string;
	/** What matched, where the row may not show it: "negative: …watermark". Only for the newest hits. */
	where?: string;
}

/** Hits described by `where` (the rest are listed without it): a screenful several times over. */
const WHERE_MAX = 300;
/** How long texts stay in memory after the last search. */
export const SEARCH_IDLE_MS = 5 * 60_000;
/** Runs per chunk, in memory and stored: about 50 KB of text, under the size past which Chromium keeps a record as a file. */
export const CHUNK = 100;
/** Runs this old are put in stored chunks: a run changes (status, outputs) in its first minutes, and a change to a chunked run strikes its chunk out. */
export const SEAL_AGE_MS = 86_400_000;
/** A field's term this short is looked for line by line: it is found all over the other fields. */
const SHORT_TERM = 3;
/**
 * Chunks written per transaction while sealing: about half a MB of texts and a thousand entries. A
 * read asked meanwhile (a search's rows, a page of the Runs list) waits for the write under way:
 * fifty chunks a transaction held one up for seconds under load.
 */
const SEAL_BATCH = 10;
/** Where a run's text is being made from its record: a text of no lines, which nothing matches. */
const NOT_YET_MADE = '\n';
/** Above any timeline key: the end of the range after the last chunk. */
const TIMELINE_END = `${TIMELINE_KEY}\uffff`;
const CHUNKS_END = `${SEARCH_CHUNK_KEY}\uffff`;
/** A slot is chunk * STRIDE + place in the chunk: stored chunks are read as they are, whatever their size. */
const STRIDE = 65_536;

const chunkKeyOf = (timelineKey: string) => SEARCH_CHUNK_KEY + timelineKey.slice(TIMELINE_KEY.length);
const timelineKeyOfChunk = (chunkKey: string) => TIMELINE_KEY + chunkKey.slice(SEARCH_CHUNK_KEY.length);
const legacyKeyOf = (timelineKey: string) => SEARCH_TEXT_KEY + timelineKey.slice(TIMELINE_KEY.length);
/** The creation time in a timeline key, `tl:<13 digits>:<id>` (-1 for '' or another shape). */
const createdOf = (key: string) =>
	(key.length > TIMELINE_KEY.length + 14 ? Number(key.slice(TIMELINE_KEY.length, TIMELINE_KEY.length + 13)) : NaN) || -1;
/** The timeline key of a moment: every run created before it sorts before it. */
const timelineKeyAt = (ms: number) => `${TIMELINE_KEY}${String(Math.max(0, Math.floor(ms))).padStart(13, '0')}`;

/**
 * A chunk's texts as one string, joined by the separator, and where each starts. A stored chunk's
 * string is kept as it was read: not copied, nor flattened by adding to it (50 MB at a reload).
 */
class Chunk {
	readonly ids: string[];
	/**
	 * Each run's creation time, the rest of its timeline key (-1 where not known: a chunk of an
	 * older version). Numbers, not the keys: 100,000 key strings held 6 MiB.
	 */
	readonly created: number[];
	private text: string;
	/** Where each text starts in `text`, and (last) where the next would: one past the end of the string. */
	private starts: number[];

	constructor(ids: string[] = [], joined = '', created: number[] = ids.map(() => -1)) {
		this.ids = ids;
		this.created = created;
		this.text = ids.length === 0 ? '' : joined;
		this.starts = [0];
		if (ids.length === 0) return;
		for (let at = joined.indexOf(SEPARATOR); at >= 0; at = joined.indexOf(SEPARATOR, at + 1)) this.starts.push(at + 1);
		this.starts.push(joined.length + 1);
	}

	get size(): number {
		return this.ids.length;
	}

	/** The timeline key of the run at `at`, if known. */
	keyAt(at: number): string | undefined {
		const created = this.created[at]!;
		return created < 0 ? undefined : `${TIMELINE_KEY}${String(created).padStart(13, '0')}:${this.ids[at]}`;
	}

	doc(at: number): string {
		return this.text.slice(this.starts[at], this.starts[at + 1]! - 1);
	}

	push(id: string, doc: string, created: number): number {
		this.text = this.ids.length === 0 ? doc : this.text + SEPARATOR + doc;
		this.ids.push(id);
		this.created.push(created);
		this.starts.push(this.text.length + 1);
		return this.ids.length - 1;
	}

	/** Puts `doc` in place of the text at `at` ('' for a deleted run). */
	replace(at: number, doc: string): void {
		const from = this.starts[at]!;
		const to = this.starts[at + 1]! - 1;
		this.text = this.text.slice(0, from) + doc + this.text.slice(to);
		const shift = doc.length - (to - from);
		for (let i = at + 1; i < this.starts.length; i++) this.starts[i]! += shift;
		if (doc === '') {
			this.ids[at] = '';
			this.created[at] = -1;
		}
	}

	/**
	 * Indexes of the texts holding `term`, in order: one pass over the joined string. A field's term
	 * counts only on a line of that field (the line's code follows the newline before the match:
	 * no term holds a newline, so a match never spans lines).
	 */
	holding(term: SearchTerm): number[] {
		if (term.field !== null && term.text.length <= SHORT_TERM) return this.holdingOnLines(term.text, SEARCH_FIELDS[term.field]);
		const { text: all, starts } = this;
		const code = term.field === null ? null : SEARCH_FIELDS[term.field];
		const out: number[] = [];
		let doc = 0;
		for (let at = all.indexOf(term.text); at >= 0; at = all.indexOf(term.text, at)) {
			if (code !== null && all[all.lastIndexOf('\n', at) + 1] !== code) {
				const end = all.indexOf('\n', at);
				at = end < 0 ? all.length : end; // the rest of this line is another field's too
				continue;
			}
			while (starts[doc + 1]! <= at) doc++;
			out.push(doc);
			at = starts[doc + 1]!; // one hit per text is enough
			doc++;
		}
		return out;
	}

	/** `holding` for a short term of a field (found all over other fields): each line of the field is looked in instead. */
	private holdingOnLines(text: string, code: string): number[] {
		const { text: all, starts } = this;
		const lead = `\n${code}`;
		const out: number[] = [];
		let doc = 0;
		for (let at = all.indexOf(lead); at >= 0; at = all.indexOf(lead, at + 1)) {
			while (starts[doc + 1]! <= at) doc++;
			const newline = all.indexOf('\n', at + 1);
			const end = newline < 0 || newline > starts[doc + 1]! ? starts[doc + 1]! - 1 : newline;
			if (!all.slice(at + 2, end).includes(text)) continue;
			out.push(doc);
			at = starts[doc + 1]! - 1;
			doc++;
		}
		return out;
	}
}

/** A run read from its entry (no chunk covers it), with what sealing it into a chunk needs. */
interface LooseRun {
	key: string;
	id: string;
	/** The entry as read: written again without its text once the text is in a chunk. */
	entry: TimelineEntry;
	/** Whether the entry holds its text (else it was made from the run's record, or came from an older version's `sx:` record, which goes then). */
	ownText: boolean;
}

/** Timeline keys in `(after, upTo]` not covered by a stored chunk, with the runs read there. */
interface Uncovered {
	after: string;
	upTo: string;
	runs: LooseRun[];
}

/** A run whose text is stored nowhere: under way, or an entry of an older version. Made from its record. */
export interface MissingText {
	id: string;
	kind: TimelineEntry['kind'];
	/** Its timeline key. */
	key: string;
}

interface Loaded {
	chunks: Chunk[];
	slot: Map<string, number>;
	/** Runs whose entry has no text and no older `sx:` record either. */
	missing: MissingText[];
}

/** What the background sealing after a load works from. */
interface SealPlan {
	gaps: Uncovered[];
	tail: Uncovered;
	/** Chunk records that are tombstones or unreadable: deleted once their runs are in new chunks. */
	stale: string[];
}

export class SearchIndex {
	private loaded: Loaded | undefined;
	private loading: Promise<Loaded> | undefined;
	private idleTimer: ReturnType<typeof setTimeout> | undefined;
	/** Saves and deletes that happened while the texts were being read: applied over what was read. */
	private readonly during: Array<[string, string | null, string | undefined]> = [];
	/** Runs saved or deleted since the last load began: not sealed into a chunk from what that load read. */
	private readonly changed = new Set<string>();
	/** The sealing in progress, for tests and the bench to wait on. */
	sealing: Promise<void> = Promise.resolve();
	/** Loads and searches under way, and who waits for them to end (the Runs list's full read). */
	private busy = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(
		private readonly kv: KeyValueStore,
		private readonly idleMs = SEARCH_IDLE_MS,
		private readonly now: () => number = () => Date.now(),
		/** Sealing waits this long after a load: the search that caused the load answers first. */
		private readonly sealDelayMs = 3000
	) {}

	/**
	 * Reads the texts ahead of a search (the Runs page, once its first screenful is shown), so the
	 * first search after a reload does not wait for them.
	 */
	async prepare(): Promise<void> {
		await this.searching(() => this.load());
		this.touch();
	}

	/**
	 * Resolves when no load or search is under way: a long read that could wait (every timeline
	 * entry) goes in between searches, not before them, on the worker's one thread.
	 */
	quiet(): Promise<void> {
		return this.busy === 0 ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
	}

	/** Runs `work` as (part of) a search: `quiet` waits for it. */
	async searching<T>(work: () => Promise<T>): Promise<T> {
		this.busy++;
		try {
			return await work();
		} finally {
			if (--this.busy === 0) for (const resolve of this.waiting.splice(0)) resolve();
		}
	}

	/** Whether the texts are in memory now (for tests and the bench). */
	get inMemory(): boolean {
		return this.loaded !== undefined;
	}

	/** Whether a saved run's text is wanted now: the texts are in memory, or being read. */
	get holdsTexts(): boolean {
		return this.loaded !== undefined || this.loading !== undefined;
	}

	/** Reads the chunks, then the entries they do not cover; a failed read is tried again next time. */
	private load(): Promise<Loaded> {
		if (this.loaded) return Promise.resolve(this.loaded);
		this.changed.clear();
		this.loading ??= traced('load', () => this.read()).then(
			([loaded, plan]) => {
				for (const [id, doc, key] of this.during.splice(0)) {
					if (doc === null) this.drop(loaded, id);
					else this.place(loaded, id, doc, key);
				}
				this.loaded = loaded;
				this.loading = undefined;
				this.sealing = this.seal(plan).catch(() => undefined); // chunks only save later reads: a failure costs nothing now
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

	private async read(): Promise<[Loaded, SealPlan]> {
		let t = performance.now();
		// One read: the same read in four key ranges, in parallel transactions, took 1.2-1.9 s against 0.75-1.4 s (load 5-7).
		const rows = await this.kv.entries<unknown>(SEARCH_CHUNK_KEY);
		span(`load: chunks read (${rows.length})`, t);
		t = performance.now();
		const chunks: SearchChunk[] = [];
		const stale: string[] = [];
		const gaps: Uncovered[] = [];
		let covered = TIMELINE_KEY;
		for (const [key, value] of rows) {
			const chunk = readSearchChunk(value, timelineKeyOfChunk(key));
			// A chunk overlapping the one before (two tabs sealed at once) is read from the entries instead.
			if (!chunk || chunk.after < covered) {
				stale.push(key);
				continue;
			}
			if (chunk.after > covered) gaps.push({ after: covered, upTo: chunk.after, runs: [] });
			chunks.push(chunk);
			covered = chunk.to;
		}
		const tail: Uncovered = { after: covered, upTo: TIMELINE_END, runs: [] };
		const ranges = [...gaps, tail];
		span(`load: chunks parsed (${stale.length} stale, ${gaps.length} gaps)`, t);
		t = performance.now();
		const read = await Promise.all(ranges.map((r) => this.kv.between<unknown>(r.after, r.upTo)));
		span(`load: uncovered entries read (${read.reduce((n, rows) => n + rows.length, 0)})`, t);
		t = performance.now();
		const texts = new Map<string, string>();
		const lacking: LooseRun[] = [];
		ranges.forEach((range, r) => {
			for (const [key, value] of read[r]!) {
				const record = readTimelineRecord(value);
				if (!record) continue;
				const run: LooseRun = { key, id: record.entry.id, entry: record.entry, ownText: record.text !== null };
				if (record.text === null) lacking.push(run);
				else texts.set(key, record.text);
				range.runs.push(run);
			}
		});
		// No text in the entry: a run under way (made from its record), or an ended run of an older
		// version, whose text may be in an `sx:` record. Those are read only when such a run is there:
		// the read cost 240 ms at every first search, queued behind other reads.
		const legacy = lacking.some((run) => !isUnderWay(run.entry.status))
			? new Map(await traced('load: sx: read', () => this.kv.entries<unknown>(SEARCH_TEXT_KEY)))
			: new Map<string, unknown>();
		const missing: MissingText[] = [];
		for (const run of lacking) {
			const text = legacy.get(legacyKeyOf(run.key));
			if (typeof text === 'string' && !text.includes(SEPARATOR)) texts.set(run.key, text);
			else missing.push({ id: run.id, kind: run.entry.kind, key: run.key });
		}
		const loaded: Loaded = { chunks: [], slot: new Map(), missing };
		// A missing text holds its run's place, in time order, until the timeline service makes it: hits come newest first.
		const placeRange = (range: Uncovered) => {
			for (const run of range.runs) this.place(loaded, run.id, texts.get(run.key) ?? NOT_YET_MADE, run.key);
		};
		let gap = 0;
		for (const chunk of chunks) {
			while (gap < gaps.length && gaps[gap]!.upTo <= chunk.after) placeRange(gaps[gap++]!);
			this.adopt(loaded, chunk);
		}
		placeRange(tail);
		span(`load: placed (${missing.length} missing)`, t);
		return [loaded, { gaps, tail, stale }];
	}

	/** A stored chunk becomes one in memory as it is: its text is not copied. */
	private adopt(into: Loaded, chunk: SearchChunk): void {
		const c = into.chunks.length;
		into.chunks.push(new Chunk([...chunk.ids], chunk.texts, chunk.keys?.map(createdOf)));
		chunk.ids.forEach((id, at) => {
			const before = into.slot.get(id);
			// The same id twice (records of a bug): the newer place wins, the older is blanked.
			if (before !== undefined) into.chunks[Math.floor(before / STRIDE)]!.replace(before % STRIDE, '');
			into.slot.set(id, c * STRIDE + at);
		});
	}

	private place(into: Loaded, id: string, doc: string, key = ''): void {
		const slot = into.slot.get(id);
		if (slot !== undefined) {
			const chunk = into.chunks[Math.floor(slot / STRIDE)]!;
			chunk.replace(slot % STRIDE, doc);
			if (key !== '') chunk.created[slot % STRIDE] = createdOf(key);
			return;
		}
		let last = into.chunks.at(-1);
		if (!last || last.size >= CHUNK) into.chunks.push((last = new Chunk()));
		const at = last.push(id, doc, createdOf(key));
		into.slot.set(id, (into.chunks.length - 1) * STRIDE + at);
	}

	private drop(from: Loaded, id: string): void {
		const slot = from.slot.get(id);
		if (slot === undefined) return;
		from.slot.delete(id);
		from.chunks[Math.floor(slot / STRIDE)]!.replace(slot % STRIDE, '');
	}

	/** The run's text, as in memory now (for sealing). */
	private textOf(loaded: Loaded, id: string): string | undefined {
		const slot = loaded.slot.get(id);
		return slot === undefined ? undefined : loaded.chunks[Math.floor(slot / STRIDE)]!.doc(slot % STRIDE);
	}

	/**
	 * Writes chunks for what the load had to read from entries: each gap whole, and the runs past the
	 * last chunk that are a day old, a hundred at a time; in the same transaction, their entries
	 * without their texts (or, for an older version's, their `sx:` records deleted). A run changed
	 * since the load keeps its piece from being sealed now: the next load does it.
	 */
	private async seal(plan: SealPlan): Promise<void> {
		await new Promise((resolve) => (setTimeout(resolve, this.sealDelayMs) as { unref?: () => void }).unref?.());
		const loaded = this.loaded;
		if (!loaded) return;
		const cutoff = timelineKeyAt(this.now() - SEAL_AGE_MS);
		// Each piece starts where the one before ends, so the chunks tile the keys; a piece left out
		// (a run in it changed) is a gap the next load reads from the entries and seals then.
		const pieces: Array<{ after: string; to: string; runs: LooseRun[] }> = [];
		for (const gap of plan.gaps) {
			let after = gap.after;
			if (gap.runs.length === 0) pieces.push({ after, to: gap.upTo, runs: [] });
			for (let i = 0; i < gap.runs.length; i += CHUNK) {
				const runs = gap.runs.slice(i, i + CHUNK);
				const to = i + CHUNK >= gap.runs.length ? gap.upTo : runs.at(-1)!.key;
				pieces.push({ after, to, runs });
				after = to;
			}
		}
		const old = plan.tail.runs.filter((run) => run.key < cutoff);
		for (let i = 0, after = plan.tail.after; i + CHUNK <= old.length; i += CHUNK) {
			const runs = old.slice(i, i + CHUNK);
			pieces.push({ after, to: runs.at(-1)!.key, runs });
			after = runs.at(-1)!.key;
		}
		const written = new Set<string>();
		for (let b = 0; b < pieces.length; b += SEAL_BATCH) {
			await this.quiet(); // a search under way reads first
			if (this.loaded !== loaded) return;
			// Checked just before the write is asked for: a save after this reads the chunk keys in a
			// transaction that runs after this one, and strikes out the chunk it lands in.
			const writes: Array<[string, unknown]> = [];
			const legacy: string[] = [];
			for (const piece of pieces.slice(b, b + SEAL_BATCH)) {
				const texts: string[] = [];
				for (const run of piece.runs) {
					// An id holding the separator (a record of a bug) could not be read back from a chunk.
					const text = this.changed.has(run.id) || run.id.includes(SEPARATOR) ? undefined : this.textOf(loaded, run.id);
					if (text === undefined || text === '' || text === NOT_YET_MADE) break;
					texts.push(text);
				}
				if (texts.length < piece.runs.length) continue;
				const chunk = {
					after: piece.after,
					to: piece.to,
					ids: piece.runs.map((r) => r.id),
					keys: piece.runs.map((r) => r.key),
					texts: texts.join(SEPARATOR)
				};
				writes.push([chunkKeyOf(piece.to), storedChunk(chunk)]);
				for (const run of piece.runs) {
					if (run.ownText) writes.push([run.key, run.entry]);
					else legacy.push(legacyKeyOf(run.key));
				}
			}
			if (writes.length === 0) continue;
			await traced(`seal: write (${writes.length})`, () => this.kv.setMany(writes));
			for (const [key] of writes) written.add(key);
			if (legacy.length > 0) await this.kv.deleteMany(legacy);
		}
		const gone = plan.stale.filter((key) => !written.has(key));
		if (gone.length > 0) await this.kv.deleteMany(gone);
	}

	/**
	 * The stored chunks (their keys) that may hold the runs under `timelineKeys`: a save or delete of
	 * such a run writes a tombstone over its chunk (or deletes it) in its own transaction, so no chunk
	 * is older than the entries it stands for. A run of the last day is in none (no read at all: the
	 * save of a new run costs nothing more). For an older one, the chunk covering it is the first
	 * chunk key at or after its own (chunks are keyed by their last run): one key is read from
	 * storage per chunk touched, not every chunk key, and not from memory, as another tab may have
	 * written that chunk a moment ago.
	 */
	async chunksOf(timelineKeys: readonly string[]): Promise<string[]> {
		const cutoff = timelineKeyAt(this.now() - SEAL_AGE_MS);
		const old = timelineKeys.filter((key) => key < cutoff).sort();
		const found: string[] = [];
		for (const key of old) {
			// Runs up to the chunk just found are in it too.
			if (found.length > 0 && key <= timelineKeyOfChunk(found.at(-1)!)) continue;
			const chunk = await this.kv.firstKey(chunkKeyOf(key), CHUNKS_END);
			if (chunk === undefined) break;
			found.push(chunk);
		}
		return found;
	}

	/** A run's text was saved (its entry under `key`): kept in step when the texts are in memory, else read at the next search. */
	saved(id: string, doc: string, key?: string): void {
		this.changed.add(id);
		if (this.loaded) this.place(this.loaded, id, doc, key);
		else if (this.loading) this.during.push([id, doc, key]);
	}

	removed(id: string): void {
		this.changed.add(id);
		if (this.loaded) this.drop(this.loaded, id);
		else if (this.loading) this.during.push([id, null, undefined]);
	}

	/** The timeline key of a run in memory, if known (not for runs of chunks an older version wrote): a hit's entry is read by it. */
	keyOf(id: string): string | undefined {
		const slot = this.loaded?.slot.get(id);
		return slot === undefined ? undefined : this.loaded!.chunks[Math.floor(slot / STRIDE)]!.keyAt(slot % STRIDE);
	}

	/** Runs whose text is stored nowhere (under way, or entries of an old version): made by the timeline service, once a load. */
	async missingTexts(): Promise<MissingText[]> {
		const loaded = await this.load();
		return loaded.missing.splice(0);
	}

	/**
	 * Runs whose text has every term, newest first. `alternatives` adds, per term (by index), other
	 * texts that also count as that term found: a profile name's term finds its runs by profile id.
	 */
	search(terms: readonly SearchTerm[], alternatives: ReadonlyMap<number, readonly string[]> = new Map()): Promise<SearchHit[]> {
		return this.searching(() => traced('search: load + scan', () => this.scan(terms, alternatives)));
	}

	private async scan(terms: readonly SearchTerm[], alternatives: ReadonlyMap<number, readonly string[]>): Promise<SearchHit[]> {
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
			// The lead's pass checks its field too: only the other terms are looked for in each run.
			const candidates = lead ? chunk.holding(lead.term) : Array.from({ length: chunk.size }, (_, i) => i);
			for (let k = candidates.length - 1; k >= 0; k--) {
				const i = candidates[k]!;
				const id = chunk.ids[i]!;
				if (id === '') continue;
				const described = hits.length < WHERE_MAX;
				if (terms.length === 1 && lead && !described) {
					hits.push({ id });
					continue;
				}
				const doc = chunk.doc(i);
				if (doc === '') continue;
				let all = true;
				for (let t = 0; t < terms.length && all; t++) if (t !== lead?.t) all = has(doc, t);
				if (!all) continue;
				const where = described ? whereMatched(doc, terms) : null;
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
