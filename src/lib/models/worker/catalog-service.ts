/**
 * The catalog per profile: the saved list (IndexedDB, with its age) answered at once, and a walk in
 * the background that sends each page's new entries to the page as they arrive (never the whole list
 * again) and saves the list when complete.
 */
import { ok, type AppError, type Result } from '../../core/protocol/errors';
import type { CatalogView, WalkStatus } from '../rules/model-catalog';
import { parseCatalogEntry } from '../rules/model-catalog';
import { isObject, type Json } from '../../core/protocol/json';
import type { RouterModelListEntry } from '../protocol/router-api';
import type { WorkerContext } from '../../core/worker/context';
import { walkCatalog } from './catalog-walk';
import { routerClient, type RouterClient } from './router-client';
import { MODEL_CATALOG_KEY } from '../../core/protocol/storage-keys';

const CATALOG_KEY = MODEL_CATALOG_KEY;
const RECORD_VERSION = 1;
/** Pages after the first reach the page at most this often during a walk (each update costs both threads). */
const PAGE_EVENT_MS = 100;
/** A saved list younger than this is shown without a background walk (Refresh walks at once). */
export const CATALOG_FRESH_MS = 5 * 60 * 1000;

interface CatalogRecord {
	v: number;
	savedAt: number;
	models: RouterModelListEntry[];
}

function parseRecord(value: unknown): CatalogRecord | undefined {
	if (!isObject(value as Json) || (value as CatalogRecord).v !== RECORD_VERSION) return undefined;
	const rec = value as { savedAt?: unknown; models?: unknown };
	if (typeof rec.savedAt !== 'number' || !Array.isArray(rec.models)) return undefined;
	const models = (rec.models as Json[]).map(parseCatalogEntry).filter((m): m is RouterModelListEntry => m !== undefined);
	return { v: RECORD_VERSION, savedAt: rec.savedAt, models };
}

export interface CatalogDeps {
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
}

export class CatalogService {
	private readonly views = new Map<string, CatalogView>();
	private readonly walks = new Map<string, { id: number; done: Promise<void> }>();
	private walkSeq = 0;
	/** Told the ids of each completed walk (the schema prefetch starts from there). */
	onWalked: ((profileId: string, modelIds: string[]) => void) | undefined;

	constructor(
		private readonly ctx: WorkerContext,
		private readonly deps: CatalogDeps
	) {}

	/** Whether a walk of the profile is on its way (background work waits for it to end). */
	isWalking(profileId: string): boolean {
		const kind = this.views.get(profileId)?.walk.kind;
		return kind === 'walking' || kind === 'retrying';
	}

	/** The ids of the list known now (saved or walked), for background work. */
	modelIds(profileId: string): string[] {
		return this.views.get(profileId)?.models.map((m) => m.id) ?? [];
	}

	private publish(view: CatalogView): CatalogView {
		this.views.set(view.profileId, view);
		this.ctx.emit({ type: 'model-catalog', view });
		return view;
	}

	private async saved(profileId: string): Promise<CatalogRecord | undefined> {
		return parseRecord(await this.ctx.kv.get(CATALOG_KEY + profileId));
	}

	/** What is known now (saved list or the walk so far); starts a background walk unless one ran recently. */
	async catalog({ profileId, refresh }: { profileId: string; refresh?: boolean }): Promise<Result<CatalogView>> {
		await this.ctx.ready();
		let view = this.views.get(profileId);
		let client: Promise<Result<RouterClient, AppError>> | undefined;
		if (!view) {
			// Read side by side: the walk that usually follows needs the profile and its key first thing.
			client = routerClient(this.ctx, profileId);
			const rec = await this.saved(profileId);
			view = rec
				? { profileId, models: rec.models, savedAt: rec.savedAt, source: 'cache', walk: { kind: 'idle' } }
				: { profileId, models: [], savedAt: null, source: 'none', walk: { kind: 'idle' } };
			this.views.set(profileId, view);
		}
		const running = view.walk.kind === 'walking' || view.walk.kind === 'retrying';
		const stale = view.savedAt === null || this.deps.now() - view.savedAt > CATALOG_FRESH_MS;
		if (!running && (refresh || (view.walk.kind !== 'done' && stale)))
			void this.walk(profileId, client ?? routerClient(this.ctx, profileId));
		else void client?.catch(() => undefined);
		return ok(this.views.get(profileId) ?? view);
	}

	/** Resolves when the current walk of a profile ends (tests, benchmarks). */
	async settled(profileId: string): Promise<CatalogView | undefined> {
		await this.walks.get(profileId)?.done;
		return this.views.get(profileId);
	}

	private setWalk(profileId: string, walk: WalkStatus): void {
		const view = this.views.get(profileId);
		if (view) this.publish({ ...view, walk });
	}

	private walk(profileId: string, client: Promise<Result<RouterClient, AppError>>): Promise<void> {
		const id = ++this.walkSeq;
		const done = this.runWalk(profileId, id, client);
		this.walks.set(profileId, { id, done });
		return done;
	}

	private async runWalk(profileId: string, id: number, clientRead: Promise<Result<RouterClient, AppError>>): Promise<void> {
		const client = await clientRead;
		if (!client.ok) return this.setWalk(profileId, { kind: 'failed', pages: 0, error: client.error });
		// A list already on screen (saved, or walked earlier) stays until the new one is complete.
		const keepShown = (this.views.get(profileId)?.models.length ?? 0) > 0;
		const startedAt = this.deps.now();
		let lastSent = 0;
		let sentCount = 0;
		// The first request is on its way before the page hears that a walk started.
		const walking = walkCatalog(client.value, {
			// Without a list on screen, the entries walked so far go to the page as they come: the first page
			// at once, later ones together at most every PAGE_EVENT_MS; the last with the completed list.
			onPage: ({ models, pages, last }) => {
				const view = this.views.get(profileId);
				if (!view || this.walks.get(profileId)?.id !== id) return;
				const walk: WalkStatus = { kind: 'walking', pages };
				this.views.set(profileId, { ...view, walk, ...(keepShown ? {} : { models, source: 'walk' as const }) });
				const now = this.deps.now();
				if (last || (pages > 1 && now - lastSent < PAGE_EVENT_MS)) return;
				lastSent = now;
				const added = keepShown ? {} : { added: { from: sentCount, models: models.slice(sentCount) } };
				sentCount = models.length;
				this.ctx.emit({ type: 'model-catalog-page', profileId, walk, ...added });
			},
			onRetry: ({ pages, attempt, retryInMs, error }) => this.setWalk(profileId, { kind: 'retrying', pages, attempt, retryInMs, error }),
			sleep: this.deps.sleep,
			random: this.deps.random,
			cancelled: () => this.walks.get(profileId)?.id !== id
		});
		this.setWalk(profileId, { kind: 'walking', pages: 0 });
		const result = await walking;
		if (this.walks.get(profileId)?.id !== id) return;
		if (!result.ok) return this.setWalk(profileId, { kind: 'failed', pages: this.pagesOf(profileId), error: result.error });
		const at = this.deps.now();
		const view = this.views.get(profileId);
		const walk: WalkStatus = { kind: 'done', pages: result.value.pages, at, ms: at - startedAt };
		// Shown first, saved after: the save never delays the list.
		if (view) this.publish({ ...view, models: result.value.models, savedAt: at, source: 'walk', walk });
		await this.ctx.kv.set(CATALOG_KEY + profileId, { v: RECORD_VERSION, savedAt: at, models: result.value.models } satisfies CatalogRecord);
		this.onWalked?.(
			profileId,
			result.value.models.map((m) => m.id)
		);
	}

	private pagesOf(profileId: string): number {
		const walk = this.views.get(profileId)?.walk;
		return walk && 'pages' in walk ? walk.pages : 0;
	}

	/** The saved or walked entry of one model, for its page. */
	async entry(profileId: string, modelId: string): Promise<RouterModelListEntry | undefined> {
		const view = this.views.get(profileId);
		const found = view?.models.find((m) => m.id === modelId);
		if (found) return found;
		return (await this.saved(profileId))?.models.find((m) => m.id === modelId);
	}
}
