/** Pool records in the worker's store, one per pool under `pool:<id>`. */
import { POOL_KEY } from '../../core/protocol/storage-keys';
import type { KeyValueStore } from '../../core/worker/kv-store';
import { POOL_SCHEMA_VERSION, type Pool } from '../protocol/pool';

export class PoolRepo {
	constructor(private readonly kv: KeyValueStore) {}

	async get(id: string): Promise<Pool | undefined> {
		const pool = await this.kv.get<Pool>(POOL_KEY + id);
		return pool?.schemaVersion === POOL_SCHEMA_VERSION ? pool : undefined;
	}

	async list(): Promise<Pool[]> {
		const rows = await this.kv.entries<Pool>(POOL_KEY);
		return rows
			.map(([, p]) => p)
			.filter((p) => p.schemaVersion === POOL_SCHEMA_VERSION)
			.sort((a, b) => a.createdAt - b.createdAt);
	}

	put(pool: Pool): Promise<void> {
		return this.kv.set(POOL_KEY + pool.id, pool, { required: true });
	}

	remove(id: string): Promise<void> {
		return this.kv.delete(POOL_KEY + id);
	}
}
