/**
 * Catalog tiles' facts in the background: after a catalog walk, every model's schema document is
 * fetched (or revalidated with its ETag: a 304 costs no body) two at a time, summarised here in the
 * worker (kind, title, first sentence, needed inputs) and sent to the page in batches. It waits while
 * a walk of the same profile runs, so the walk is never slowed, and the catalog is usable before any
 * summary has arrived. Summaries are saved per profile, so the next visit shows them at once.
 */
import type { AppError } from '../../core/protocol/errors';
import { parseSummary, summariseSchema, type ModelSummary } from '../rules/model-summary';
import { MODEL_SUMMARIES_KEY } from '../../core/protocol/storage-keys';
import type { WorkerContext } from '../../core/worker/context';
import type { SchemaService } from './schema-service';
import type { PrefetchProgress } from '../protocol/api';

/** Documents asked for at once: low, so a model page's own request never waits behind many. */
export const PREFETCH_CONCURRENCY = 2;
/** Summaries reach the page at most this often (each batch costs the page a render and a layout). */
const EVENT_MS = 500;
/** The saved record is rewritten at most this often while a prefetch runs, and at its end. */
const SAVE_MS = 3000;
/** How often a paused prefetch looks again whether the walk has ended. */
const WALK_POLL_MS = 100;
/** Failures in a row (offline, service down) that end a prefetch; the next walk starts another. */
const MAX_FAILURES_IN_A_ROW = 4;
const RECORD_VERSION = 1;

export interface PrefetchDeps {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export class SchemaPrefetch {
	private readonly known = new Map<string, Map<string, ModelSummary>>();
	/** Models revalidated since the worker started, per profile: not asked again until the next walk. */
	private readonly fresh = new Map<string, Set<string>>();
	private readonly progress = new Map<string, PrefetchProgress>();
	private readonly runs = new Map<string, { id: number; done: Promise<void> }>();
	private seq = 0;

	constructor(
		private readonly ctx: WorkerContext,
		private readonly schemas: Pick<SchemaService, 'schema'>,
		/** Whether a catalog walk of the profile is running (the prefetch waits for it). */
		private readonly walking: (profileId: string) => boolean,
		private readonly deps: PrefetchDeps,
		private readonly concurrency = PREFETCH_CONCURRENCY
	) {}

	/** The summaries known for a profile (saved ones on first ask) and how far a prefetch got. */
	async summaries(profileId: string): Promise<{ summaries: ModelSummary[]; progress: PrefetchProgress | null }> {
		const known = await this.load(profileId);
		return { summaries: [...known.values()], progress: this.progress.get(profileId) ?? null };
	}

	/** Resolves when the prefetch of a profile ends (tests, benchmarks). */
	async settled(profileId: string): Promise<void> {
		await this.runs.get(profileId)?.done;
	}

	/**
	 * Summarises `modelIds`: models without a summary first, then the others revalidated (unless
	 * `revalidate` is false or they were checked since the worker started). Replaces a running prefetch.
	 */
	start(profileId: string, modelIds: string[], { revalidate = true }: { revalidate?: boolean } = {}): Promise<void> {
		const id = ++this.seq;
		if (revalidate) this.fresh.delete(profileId);
		const done = this.run(profileId, id, modelIds, revalidate);
		this.runs.set(profileId, { id, done });
		return done;
	}

	/** Starts a prefetch of the models still without a summary, unless one is running. */
	async fillIn(profileId: string, modelIds: string[]): Promise<void> {
		if (this.isRunning(profileId)) return;
		const known = await this.load(profileId);
		const tried = this.fresh.get(profileId);
		if (modelIds.some((m) => !known.has(m) && !tried?.has(m))) void this.start(profileId, modelIds, { revalidate: false });
	}

	private isRunning(profileId: string): boolean {
		const p = this.progress.get(profileId);
		return p !== undefined && p.done < p.total && !p.stoppedBecause && this.runs.has(profileId);
	}

	private async load(profileId: string): Promise<Map<string, ModelSummary>> {
		let known = this.known.get(profileId);
		if (known) return known;
		const rec = (await this.ctx.kv.get<unknown>(MODEL_SUMMARIES_KEY + profileId)) as { v?: unknown; summaries?: unknown } | undefined;
		known = this.known.get(profileId) ?? new Map();
		if (rec && rec.v === RECORD_VERSION && Array.isArray(rec.summaries))
			for (const raw of rec.summaries) {
				const s = parseSummary(raw);
				if (s && !known.has(s.modelId)) known.set(s.modelId, s);
			}
		this.known.set(profileId, known);
		return known;
	}

	private async save(profileId: string): Promise<void> {
		const known = this.known.get(profileId);
		if (known) await this.ctx.kv.set(MODEL_SUMMARIES_KEY + profileId, { v: RECORD_VERSION, summaries: [...known.values()] });
	}

	private async run(profileId: string, id: number, modelIds: string[], revalidate: boolean): Promise<void> {
		const known = await this.load(profileId);
		const fresh = this.fresh.get(profileId) ?? new Set<string>();
		this.fresh.set(profileId, fresh);
		// Models asked since the worker started (a refused one has no summary) wait for the next walk.
		const missing = modelIds.filter((m) => !known.has(m) && (revalidate || !fresh.has(m)));
		const recheck = revalidate ? modelIds.filter((m) => known.has(m) && !fresh.has(m)) : [];
		const queue = [...missing, ...recheck];
		const progress: PrefetchProgress = { done: 0, total: queue.length };
		this.progress.set(profileId, progress);
		const current = () => this.runs.get(profileId)?.id === id;
		let pending: ModelSummary[] = [];
		let lastSent = 0;
		let lastSaved = this.deps.now();
		let failures = 0;
		let next = 0;
		const flush = (force: boolean): void => {
			const now = this.deps.now();
			if (!force && now - lastSent < EVENT_MS) return;
			lastSent = now;
			const summaries = pending;
			pending = [];
			this.ctx.emit({ type: 'model-summaries', profileId, summaries, progress: { ...progress } });
		};
		const worker = async (): Promise<void> => {
			while (next < queue.length && current() && !progress.stoppedBecause) {
				while (this.walking(profileId) && current()) await this.deps.sleep(WALK_POLL_MS);
				if (!current() || next >= queue.length) return;
				const modelId = queue[next++]!;
				const answer = await this.schemas.schema({ profileId, modelId });
				progress.done++;
				fresh.add(modelId);
				if (answer.ok && answer.value.source !== 'saved') {
					failures = 0;
					const before = known.get(modelId);
					if (!before || before.etag !== answer.value.etag || answer.value.source === 'fresh') {
						const summary = summariseSchema(modelId, answer.value.document, answer.value.etag);
						known.set(modelId, summary);
						pending.push(summary);
					}
				} else if (!answer.ok && isRefusalOfOneModel(answer.error)) {
					failures = 0;
				} else if (++failures >= MAX_FAILURES_IN_A_ROW) {
					progress.stoppedBecause = answer.ok ? answer.value.staleBecause : answer.error;
				}
				flush(false);
				if (this.deps.now() - lastSaved > SAVE_MS) {
					lastSaved = this.deps.now();
					await this.save(profileId);
				}
			}
		};
		await Promise.all(Array.from({ length: Math.min(this.concurrency, Math.max(queue.length, 1)) }, worker));
		if (!current()) return;
		flush(true);
		await this.save(profileId);
	}
}

/** A refusal that concerns one model (not entitled, gone), not the service: the prefetch goes on. */
function isRefusalOfOneModel(error: AppError): boolean {
	return error.kind === 'forbidden' || error.kind === 'not-found' || error.status === 410;
}
