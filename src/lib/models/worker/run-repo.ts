/** Model runs in IndexedDB (`modelrun:<id>`), parsed on read, emitted to the page on every save. */
import { MODEL_RUN_VERSION, newerModelRun, type ModelRun, type SpendFacts } from '../rules/model-run';
import type { Json } from '../../core/protocol/json';
import type { WorkerContext } from '../../core/worker/context';

import {
	MODEL_BYTES_KEY,
	MODEL_INPUTS_KEY as INPUTS_KEY,
	MODEL_RUN_KEY,
	MODEL_SPEND_KEY as SPEND_KEY
} from '../../core/protocol/storage-keys';
import type { KeyValueStore, WriteOptions } from '../../core/worker/kv-store';

export const RUN_KEY = MODEL_RUN_KEY;

/** Removes every model run of a profile with its saved result bytes; returns the ids removed. */
export async function removeModelRunsOf(kv: KeyValueStore, profileId: string): Promise<string[]> {
	const removed: string[] = [];
	for (const [key, run] of await kv.entries<{ profileId?: string }>(RUN_KEY)) {
		if (run.profileId !== profileId) continue;
		const id = key.slice(RUN_KEY.length);
		for (const k of [key, ...(await kv.keys(`${MODEL_BYTES_KEY}${id}:`))]) await kv.delete(k);
		removed.push(id);
	}
	return removed;
}

function parseRun(value: unknown): ModelRun | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const r = value as Partial<ModelRun>;
	if (r.schemaVersion !== MODEL_RUN_VERSION || r.kind !== 'model' || typeof r.id !== 'string' || typeof r.idempotencyKey !== 'string')
		return undefined;
	return r as ModelRun;
}

export class RunRepo {
	private readonly cache = new Map<string, ModelRun>();

	constructor(private readonly ctx: WorkerContext) {
		// Runs deleted elsewhere (the timeline's batch delete) must not be served from the cache.
		ctx.onEmit((event) => {
			if (event.type === 'run-deleted') this.cache.delete(event.id);
		});
	}

	/** `required`: the run (its idempotency key, its outbox flag) must reach the device, or this rejects and nothing is cached. */
	async save(run: ModelRun, options: WriteOptions = {}): Promise<ModelRun> {
		const saved = { ...run, savedAt: Math.max(Date.now(), (run.savedAt ?? 0) + 1) };
		if (options.required) await this.ctx.kv.set(RUN_KEY + run.id, saved, options);
		this.cache.set(run.id, saved);
		if (!options.required) await this.ctx.kv.set(RUN_KEY + run.id, saved);
		this.ctx.emit({ type: 'model-run', run: saved });
		return saved;
	}

	/** Forgets a finished run and its saved result bytes; tells the pages. */
	async remove(id: string, bytesPrefix: string): Promise<void> {
		this.cache.delete(id);
		await this.ctx.kv.delete(RUN_KEY + id);
		for (const key of await this.ctx.kv.keys(`${bytesPrefix}${id}:`)) await this.ctx.kv.delete(key);
		this.ctx.emit({ type: 'run-deleted', id });
	}

	async get(id: string): Promise<ModelRun | undefined> {
		// Another tab's worker may have saved it since (it drives the run, or a person cancelled there): the later copy wins.
		return newerModelRun(this.cache.get(id), parseRun(await this.ctx.kv.get(RUN_KEY + id)));
	}

	async list(profileId?: string): Promise<ModelRun[]> {
		// One read of the range: a read per record (10,000 transactions at a reload's resume) held up
		// every other read of the worker (a search, the Runs list) for seconds. Saved result bytes are
		// under another prefix (`models:bytes:`), outside this range.
		const rows = (await this.ctx.kv.entries<unknown>(RUN_KEY)).map(([, row]) => row);
		const runs = rows.map((row) => {
			const stored = parseRun(row);
			return stored && newerModelRun(this.cache.get(stored.id), stored);
		});
		return runs
			.filter((r): r is ModelRun => r !== undefined)
			.filter((r) => !profileId || r.profileId === profileId)
			.sort((a, b) => b.createdAt - a.createdAt);
	}

	lastInputs(profileId: string, modelId: string): Promise<Json | undefined> {
		return this.ctx.kv.get<Json>(`${INPUTS_KEY}${profileId}:${modelId}`);
	}

	saveInputs(profileId: string, modelId: string, body: Json): Promise<void> {
		return this.ctx.kv.set(`${INPUTS_KEY}${profileId}:${modelId}`, body);
	}

	async spend(profileId: string): Promise<SpendFacts | undefined> {
		return this.ctx.kv.get<SpendFacts>(SPEND_KEY + profileId);
	}

	async saveSpend(profileId: string, spend: SpendFacts): Promise<void> {
		const last = await this.spend(profileId);
		if (last && last.at > spend.at) return;
		await this.ctx.kv.set(SPEND_KEY + profileId, spend);
		this.ctx.emit({ type: 'model-spend', profileId, spend });
	}
}
