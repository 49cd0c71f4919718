/**
 * The Runs timeline's index: one compact entry per run under `tl:<created at, 13 digits>:<id>`, so
 * keys sort by time: the newest page is read with a reverse cursor before the rest, and the list
 * of ten thousand runs reads small records only. It follows every save (through the events saves
 * emit) and repairs itself from the full records written some other way (an import, a bug).
 */
import { modelEntry, workflowEntry } from '../../core/rules/run-entry';
import { migrateRun } from '../../core/rules/run-migration';
import type { ModelRun } from '../../core/protocol/model-run';
import type { TimelineEntry } from '../../core/protocol/run-kernel';
import type { WorkerContext } from '../../core/worker/context';
import type { TimelineApi } from '../protocol/api';
import { MODEL_RUN_KEY as MODEL_RUN, TIMELINE_KEY, WORKFLOW_RUN_KEY as WORKFLOW_RUN } from '../../core/protocol/storage-keys';
import { planRunDeletes, searchKeyOf } from './run-deleter';
import { readTimelineRecord, storedEntry } from '../../core/rules/timeline-record';
import { isUnderWay } from '../../core/rules/run-under-way';
import type { AnyRun } from '../../core/protocol/run-kernel';
import { searchDoc, searchDocHash } from '../rules/search-doc';
import { parseQuery } from '../rules/search-query';
import { SearchIndex, type MissingText } from './search-index';
import { StarRepo } from './star-repo';
import { span, traced } from './search-trace';
import type { RunSearch } from '../protocol/api';

export { TIMELINE_KEY };
const SOURCES = [
	{ prefix: WORKFLOW_RUN, run: (value: unknown): AnyRun | undefined => migrateRun(value) ?? undefined },
	{ prefix: MODEL_RUN, run: (value: unknown): AnyRun | undefined => (isModelRun(value) ? value : undefined) }
] as const;

const entryOf = (run: AnyRun): TimelineEntry => (run.kind === 'workflow' ? workflowEntry(run) : modelEntry(run));

/** Looser than the run repo's parse on purpose: a run of another record version is still listed. */
function isModelRun(value: unknown): value is ModelRun {
	return (
		typeof value === 'object' &&
		value !== null &&
		(value as { kind?: unknown }).kind === 'model' &&
		typeof (value as { id?: unknown }).id === 'string'
	);
}

/** Fields whose change is worth a write; progress ticks are not. */
const signature = (e: TimelineEntry) =>
	`${e.status}|${e.title}|${e.asked}|${e.thumbnail}|${e.modelThumb?.key}|${e.firstOutput?.kind}|${e.firstOutput?.line}|${e.durationMs}|${e.credits}|${e.seed}`;

/**
 * Entries read per transaction when reading all of them: a search asked meanwhile waits for the page
 * under way (2,000 held it up to 150 ms under load).
 */
const READ_PAGE = 500;
const TIMELINE_END = `${TIMELINE_KEY}\uffff`;

const KEY_SHAPE = /^tl:(\d{13}):(.+)$/;
export const timelineKey = (entry: Pick<TimelineEntry, 'id' | 'createdAt'>) =>
	`${TIMELINE_KEY}${String(Math.max(0, Math.floor(entry.createdAt))).padStart(13, '0')}:${entry.id}`;

export class TimelineService {
	private readonly written = new Map<string, string>();
	/** Index key of each run id, read from the keys once. */
	private keys: Map<string, string> | undefined;
	private keysRead: Promise<Map<string, string>> | undefined;
	readonly search: SearchIndex;
	private readonly stars: StarRepo;

	constructor(private readonly ctx: WorkerContext) {
		this.search = new SearchIndex(ctx.kv);
		this.stars = new StarRepo(ctx.kv);
		ctx.onEmit((event) => {
			if (event.type === 'run' || event.type === 'model-run') void this.put(event.run);
			else if (event.type === 'run-deleted') void this.remove(event.id);
		});
	}

	api(): TimelineApi {
		return {
			timeline: (i) => this.timeline(i.limit),
			deleteRuns: (i) => this.deleteRuns(i.ids),
			searchRuns: (i) => this.search.searching(() => this.searchRuns(i.query, i.entries ?? 0)),
			prepareSearch: () => this.prepareSearch(),
			stars: () => this.stars.all(),
			setStar: (i) => this.stars.set(i)
		};
	}

	/** The Runs page has shown its first screenful: the texts are read now, so its first search does not wait for them. */
	private async prepareSearch(): Promise<void> {
		span('prepare asked', performance.now());
		await this.search.searching(async () => {
			await this.search.prepare();
			await this.addMissingTexts(await this.search.missingTexts());
		});
	}

	/**
	 * Every run whose search text has every word of `query`, newest first (see `rules/search-query.ts`),
	 * with the entries of the newest `entries` of them: a page whose list is still loading shows those.
	 */
	private async searchRuns(query: string, entries: number): Promise<RunSearch> {
		const started = performance.now();
		const terms = parseQuery(query);
		if (terms.length === 0) return { hits: [], words: [], ms: 0, entries: [] };
		// A profile's name can change, so a word of it finds the profile's runs by id instead of by text.
		// Read while the texts are (a first search waits for them): not after.
		const listed = this.ctx.profiles.list().catch(() => []);
		await traced('search: missing texts (waits for the load)', async () => this.addMissingTexts(await this.search.missingTexts()));
		const profiles = await traced('search: profiles', () => listed);
		const alternatives = new Map<number, string[]>();
		terms.forEach((term, t) => {
			if (term.field !== null && term.field !== 'profile') return;
			const ids = profiles.filter((p) => p.name.toLowerCase().includes(term.text)).map((p) => p.id.toLowerCase());
			if (ids.length > 0) alternatives.set(t, ids);
		});
		const hits = await this.search.search(terms, alternatives);
		const shown = await traced(`search: rows (${entries})`, () => this.entriesOf(hits.slice(0, entries).map((h) => h.id)));
		span('search', started);
		return { hits, words: terms.map((t) => t.text), ms: performance.now() - started, entries: shown };
	}

	private async entriesOf(ids: readonly string[]): Promise<TimelineEntry[]> {
		if (ids.length === 0) return [];
		// The index knows the keys of runs its chunks hold: 100,000 keys are read only for chunks of an older version.
		const fromIndex = ids.map((id) => this.search.keyOf(id));
		const keys = fromIndex.includes(undefined) ? await this.keyMap() : undefined;
		const known = ids.flatMap((id, i) => fromIndex[i] ?? keys?.get(id) ?? []);
		// One read for all of them: a write of many chunks (sealing) is waited for once, not per entry.
		return (await this.ctx.kv.getMany<unknown>(known)).flatMap((value) => readTimelineRecord(value)?.entry ?? []);
	}

	/**
	 * Texts stored nowhere (runs under way, entries of an older version) are made from the runs'
	 * records, read in one go: a run under way gets its text in memory only, an ended run (an older
	 * version's entry) gets it stored with its entry.
	 */
	private async addMissingTexts(missing: readonly MissingText[]): Promise<void> {
		if (missing.length === 0) return;
		const t = performance.now();
		const source = (kind: MissingText['kind']) => SOURCES[kind === 'workflow' ? 0 : 1];
		const records = await this.ctx.kv.getMany<unknown>(missing.map((m) => source(m.kind).prefix + m.id));
		for (const [i, m] of missing.entries()) {
			const run = source(m.kind).run(records[i]);
			if (!run || run.id !== m.id) continue;
			if (isUnderWay(run.status)) {
				this.search.saved(run.id, searchDoc(run), m.key);
				continue;
			}
			this.written.delete(run.id);
			await this.put(run);
		}
		span(`missing texts made: ${missing.length} runs`, t);
	}

	private async deleteRuns(ids: string[]): Promise<{ deleted: string[]; kept: string[] }> {
		const keys = await this.keyMap();
		const plan = await planRunDeletes(this.ctx.kv, ids, (id) => keys.get(id));
		// The chunks of search texts holding them go too (the next search reads those runs' entries).
		const chunks = await this.search.chunksOf(plan.deleted.flatMap((id) => keys.get(id) ?? []));
		await this.ctx.kv.deleteMany([...plan.keys, ...chunks]);
		for (const id of plan.deleted) {
			keys.delete(id);
			this.written.delete(id);
			this.ctx.emit({ type: 'run-deleted', id });
		}
		if (plan.deleted.length > 0) this.ctx.notifyTabs('runs-changed');
		return { deleted: plan.deleted, kept: plan.kept };
	}

	private keyMap(): Promise<Map<string, string>> {
		this.keysRead ??= this.readKeys().finally(() => (this.keysRead = undefined));
		return this.keysRead;
	}

	private async readKeys(): Promise<Map<string, string>> {
		if (!this.keys) {
			const t = performance.now();
			const keys = new Map<string, string>();
			for (const key of await this.ctx.kv.keys(TIMELINE_KEY)) {
				const match = KEY_SHAPE.exec(key);
				if (match) keys.set(match[2]!, key);
				else await this.ctx.kv.delete(key); // an entry in an older shape: the repair rebuilds it
			}
			this.keys ??= keys;
			span(`timeline keys read (${keys.size})`, t);
		}
		return this.keys;
	}

	/**
	 * Writes the run's entry when it changed, one record; once the run has ended, with its search
	 * text. A run under way is saved often (its status, its first output) and its text is made
	 * only where it is wanted now, in a tab searching: the first search after a reload makes the
	 * texts of the few runs under way from their records. A run old enough to be in a stored chunk
	 * of texts strikes the chunk out in the same transaction.
	 */
	private async put(run: AnyRun): Promise<void> {
		const entry = entryOf(run);
		const doc = isUnderWay(run.status) ? undefined : searchDoc(run);
		const sig = doc === undefined ? signature(entry) : `${signature(entry)}|${searchDocHash(doc)}`;
		if (this.written.get(entry.id) === sig) return;
		this.written.set(entry.id, sig);
		const key = timelineKey(entry);
		const text = doc ?? (this.search.holdsTexts ? searchDoc(run) : undefined);
		if (text !== undefined) this.search.saved(entry.id, text, key);
		const chunks = await this.search.chunksOf([key]);
		await this.ctx.kv.setMany([
			[key, doc === undefined ? entry : storedEntry(entry, doc)],
			...chunks.map((chunk): [string, null] => [chunk, null])
		]);
		await this.noteKey(entry.id, key);
	}

	/**
	 * Keeps the key map in step with an entry just written, if the map is in memory or being read:
	 * not read for it (100,000 keys, 0.3-1.5 s, at the first save after every reload, on whatever
	 * page the run was started). Noted after the write, so a read of the keys that began before it,
	 * and may not have seen it, is waited for first.
	 */
	private async noteKey(id: string, key: string): Promise<void> {
		if (this.keys) this.keys.set(id, key);
		else if (this.keysRead) (await this.keysRead).set(id, key);
	}

	private async remove(id: string): Promise<void> {
		this.written.delete(id);
		this.search.removed(id);
		const keys = await this.keyMap();
		const key = keys.get(id);
		keys.delete(id);
		if (!key) return;
		await this.ctx.kv.deleteMany([key, searchKeyOf(key), ...(await this.search.chunksOf([key]))]);
	}

	/**
	 * Entries as the page gets them: read through the one parser, without their search texts. Every
	 * entry is read in pages, each its own transaction, and each waits for a search under way, so a
	 * search asked meanwhile answers between two pages rather than after all 100,000 entries.
	 */
	async timeline(limit?: number): Promise<TimelineEntry[]> {
		const entries: TimelineEntry[] = [];
		const add = (rows: Array<[string, unknown]>) => {
			for (const [, value] of rows) {
				const record = readTimelineRecord(value);
				if (record) entries.push(record.entry);
			}
		};
		if (limit !== undefined) {
			add(await traced('list: first screen', () => this.ctx.kv.newest<unknown>(TIMELINE_KEY, limit)));
			return entries;
		}
		// A search (or the texts read ahead of one) goes first: this read can wait, a person typing cannot.
		await traced('list: waits for search', () => this.search.quiet());
		await traced('list: repair', () => this.repair());
		for (let after = TIMELINE_KEY; ;) {
			await this.search.quiet();
			const t = performance.now();
			const page = await this.ctx.kv.between<unknown>(after, TIMELINE_END, READ_PAGE);
			add(page);
			span('list: page', t);
			if (page.length < READ_PAGE) break;
			after = page.at(-1)![0];
		}
		return entries.reverse();
	}

	/** Adds entries for runs that have none and drops entries whose run is gone: keys only, unless something is missing. */
	private async repair(): Promise<void> {
		const indexed = new Set((await this.keyMap()).keys());
		const present = new Set<string>();
		for (const source of SOURCES) {
			for (const key of await this.ctx.kv.keys(source.prefix)) {
				const id = key.slice(source.prefix.length);
				present.add(id);
				if (indexed.has(id)) continue;
				const run = source.run(await this.ctx.kv.get(key));
				if (run) await this.put(run);
			}
		}
		for (const id of indexed) if (!present.has(id)) await this.remove(id);
	}
}
