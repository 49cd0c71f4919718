/**
 * What the app keeps on this device and how to make room: the browser's estimate of usage and
 * quota, the saved bytes of run outputs (workflow outputs and model results alike), and removing
 * those of the oldest runs first. Run records themselves are never removed here: a run whose bytes
 * are gone still shows what it was, and says its bytes are no longer on this device.
 */
import type { ModelRun } from '../../core/protocol/model-run';
import type { WorkerContext } from '../../core/worker/context';
import type { StorageApi, StorageStatus } from '../protocol/api';
import {
	MODEL_BYTES_KEY as BYTES_KEY,
	MODEL_RUN_KEY,
	WORKFLOW_OUTPUT_KEY as OUTPUT,
	WORKFLOW_RUN_KEY as WORKFLOW_RUN
} from '../../core/protocol/storage-keys';

export type { StorageStatus };

interface SavedOutput {
	key: string;
	size: number;
	createdAt: number;
}

export class StorageService {
	constructor(private readonly ctx: WorkerContext) {}

	api(): StorageApi {
		return {
			storageStatus: () => this.status(),
			freeOutputSpace: (i) => this.free(i.bytes)
		};
	}

	private async outputs(): Promise<SavedOutput[]> {
		return [...(await this.workflowOutputs()), ...(await this.modelResults())];
	}

	/** Workflow outputs are Blobs, which IndexedDB hands back without reading their bytes. */
	private async workflowOutputs(): Promise<SavedOutput[]> {
		const created = new Map<string, number>();
		for (const [key, run] of await this.ctx.kv.entries<{ createdAt?: number }>(WORKFLOW_RUN))
			created.set(key.slice(WORKFLOW_RUN.length), run.createdAt ?? 0);
		return (await this.ctx.kv.entries<unknown>(OUTPUT)).map(([key, blob]) => ({
			key,
			size: blob instanceof Blob ? blob.size : 0,
			createdAt: created.get(key.slice(OUTPUT.length).split(':')[0] ?? '') ?? 0
		}));
	}

	/** Model result bytes are sized from their run records, so counting them reads no bytes. */
	private async modelResults(): Promise<SavedOutput[]> {
		const known = new Map<string, { size: number; createdAt: number }>();
		for (const [, run] of await this.ctx.kv.entries<Partial<ModelRun>>(MODEL_RUN_KEY)) {
			const createdAt = run.createdAt ?? 0;
			const result = run.result;
			if (result?.bytesKey) known.set(result.bytesKey, { size: result.size ?? 0, createdAt });
			for (const asset of result?.assets ?? []) if (asset.bytesKey) known.set(asset.bytesKey, { size: asset.size ?? 0, createdAt });
		}
		return (await this.ctx.kv.keys(BYTES_KEY)).map((key) => ({
			key,
			size: known.get(key)?.size ?? 0,
			createdAt: known.get(key)?.createdAt ?? 0
		}));
	}

	private async status(): Promise<StorageStatus> {
		const estimate = await (globalThis.navigator as { storage?: StorageManager } | undefined)?.storage?.estimate?.().catch(() => undefined);
		const outputs = await this.outputs();
		return {
			usage: estimate?.usage ?? null,
			quota: estimate?.quota ?? null,
			outputs: { count: outputs.length, bytes: outputs.reduce((n, o) => n + o.size, 0) }
		};
	}

	private async free(target: number): Promise<{ freed: number; removed: number }> {
		const oldestFirst = (await this.outputs()).sort((a, b) => a.createdAt - b.createdAt);
		let freed = 0;
		let removed = 0;
		for (const output of oldestFirst) {
			if (freed >= target) break;
			await this.ctx.kv.delete(output.key);
			freed += output.size;
			removed++;
		}
		return { freed, removed };
	}
}
