/**
 * What the app keeps on this device and how to make room: the browser's estimate of usage and
 * quota, the bytes of cached workflow outputs, and removing the oldest of them first.
 */
import type { WorkerContext } from '../context';

export interface StorageStatus {
	usage: number | null;
	quota: number | null;
	outputs: { count: number; bytes: number };
}

export interface StorageApi {
	storageStatus(input: Record<string, never>): Promise<StorageStatus>;
	/** Removes cached outputs, oldest runs first, until `bytes` are freed; returns what was freed. */
	freeOutputSpace(input: { bytes: number }): Promise<{ freed: number; removed: number }>;
}

const OUTPUT = 'output:';

export class StorageService {
	constructor(private readonly ctx: WorkerContext) {}

	api(): StorageApi {
		return {
			storageStatus: () => this.status(),
			freeOutputSpace: (i) => this.free(i.bytes)
		};
	}

	private async outputs(): Promise<Array<{ key: string; size: number; createdAt: number }>> {
		const rows = await this.ctx.kv.entries<Blob>(OUTPUT);
		const created = new Map<string, number>();
		for (const [key, run] of await this.ctx.kv.entries<{ createdAt?: number }>('run:')) created.set(key.slice(4), run.createdAt ?? 0);
		return rows.map(([key, blob]) => ({
			key,
			size: blob instanceof Blob ? blob.size : 0,
			createdAt: created.get(key.split(':')[1] ?? '') ?? 0
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
