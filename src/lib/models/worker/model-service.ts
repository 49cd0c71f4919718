/** The model feature of the worker: catalog, schemas and runs, behind one `api()`. */
import { appError, fail, ok } from '../../core/protocol/errors';
import { isModelTerminal } from '../rules/model-run';
import type { RouterModelListEntry } from '../protocol/router-api';
import type { WorkerContext } from '../../core/worker/context';
import type { ModelApi } from '../protocol/api';
import { CatalogService } from './catalog-service';
import type { ModelDeps } from './deps';
import { BYTES_KEY, type AssetFetch } from './result-store';
import { RunService } from './run-service';
import { SchemaPrefetch } from './schema-prefetch';
import { SchemaService } from './schema-service';

export const REAL_DEPS: ModelDeps & { newId(): string } = {
	now: () => Date.now(),
	sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
	random: () => Math.random(),
	newId: () => crypto.randomUUID()
};

export type { ModelDeps };

export class ModelService {
	readonly catalog: CatalogService;
	readonly schemas: SchemaService;
	readonly runs: RunService;
	readonly prefetch: SchemaPrefetch;

	constructor(
		readonly ctx: WorkerContext,
		deps: ModelDeps & { newId(): string; getAsset?: AssetFetch } = REAL_DEPS,
		options: { resumeWhenLeader?: boolean } = { resumeWhenLeader: true }
	) {
		this.catalog = new CatalogService(ctx, deps);
		this.schemas = new SchemaService(ctx, deps.now);
		this.prefetch = new SchemaPrefetch(ctx, this.schemas, (profileId) => this.catalog.isWalking(profileId), deps);
		this.catalog.onWalked = (profileId, ids) => void this.prefetch.start(profileId, ids);
		this.runs = new RunService(ctx, deps, (profileId, modelId) => this.entry(profileId, modelId));
		if (options.resumeWhenLeader) void this.resumeWhenLeader();
		// A run started in another tab: the leader takes it over should that tab close (it waits for the run's lock).
		ctx.onTabTopic('models-changed', () => void (ctx.isLeader() && this.runs.resume()));
		// Back online (the page reports it as a wake-up; the worker may hear it too): send the outbox.
		ctx.onResync?.(() => void this.runs.sendOutbox());
		(globalThis as { addEventListener?: (type: string, listener: () => void) => void }).addEventListener?.(
			'online',
			() => void this.runs.sendOutbox()
		);
	}

	/** After a reload, the leader tab re-attaches unfinished runs (queued by id, sync under their key). */
	private async resumeWhenLeader(): Promise<void> {
		await this.ctx.ready();
		for (let i = 0; i < 600 && !this.ctx.isLeader(); i++) await new Promise((r) => setTimeout(r, 1000));
		if (this.ctx.isLeader()) await this.runs.resume();
	}

	private async entry(profileId: string, modelId: string): Promise<RouterModelListEntry | undefined> {
		const known = await this.catalog.entry(profileId, modelId);
		if (known) return known;
		const detail = await this.schemas.detail({ profileId, modelId });
		return detail.ok ? detail.value : undefined;
	}

	api(): ModelApi {
		return {
			modelCatalog: (i) => this.catalog.catalog(i),
			modelEntry: async (i) => {
				const known = await this.catalog.entry(i.profileId, i.modelId);
				return known ? ok(known) : this.schemas.detail(i);
			},
			modelSummaries: async ({ profileId }) => {
				// A saved list shown without a walk: summaries still missing are fetched (no revalidation).
				if (!this.catalog.isWalking(profileId)) void this.prefetch.fillIn(profileId, this.catalog.modelIds(profileId));
				return this.prefetch.summaries(profileId);
			},
			modelSchema: (i) => (i.savedFirst ? this.schemas.schemaFast(i) : this.schemas.schema(i)),
			startModelRun: (i) => this.runs.start(i),
			retryModelRun: (i) => this.runs.retry(i),
			stopWaitingModelRun: (i) => this.runs.stopWaiting(i),
			cancelModelRun: (i) => this.runs.cancel(i),
			modelRuns: (i) => this.runs.repo.list(i.profileId),
			modelRun: async (i) => (await this.runs.repo.get(i.id)) ?? null,
			deleteModelRun: async ({ id }) => {
				const run = await this.runs.repo.get(id);
				if (!run) return ok(undefined);
				if (!isModelTerminal(run.status))
					return fail(appError('invalid-input', 'A run that has not finished cannot be deleted; cancel it or stop waiting first.'));
				await this.runs.repo.remove(id, BYTES_KEY);
				return ok(undefined);
			},
			modelBytes: async ({ key }) => (key.startsWith(BYTES_KEY) ? ((await this.ctx.kv.get<Uint8Array>(key)) ?? null) : null),
			lastModelInputs: async (i) => (await this.runs.repo.lastInputs(i.profileId, i.modelId)) ?? null,
			rememberModelInputs: (i) => this.runs.repo.saveInputs(i.profileId, i.modelId, i.body),
			modelSpend: async (i) => (await this.runs.repo.spend(i.profileId)) ?? null
		};
	}
}
