/**
 * Pool records in the worker's store, one per pool under `pool:<id>`. What a pool committed to paid
 * members changes only through `changeSpend`, in one transaction with its read; every other write
 * keeps the count stored at that moment, so an edit saved in one tab never undoes a run counted in
 * another.
 */
import { POOL_KEY } from '../../core/protocol/storage-keys';
import type { KeyValueStore } from '../../core/worker/kv-store';
import { POOL_SCHEMA_VERSION, type Pool } from '../protocol/pool';

/** Records stored before prices and resets existed read as having none. */
function current(pool: Pool): Pool {
	return {
		...pool,
		members: pool.members.map((m) => ({ ...m, pricePerRunCents: m.pricePerRunCents ?? null })),
		spentSince: pool.spentSince ?? pool.createdAt
	};
}

const isCurrent = (pool: Pool | undefined): pool is Pool => pool?.schemaVersion === POOL_SCHEMA_VERSION;

export class PoolRepo {
	constructor(private readonly kv: KeyValueStore) {}

	async get(id: string): Promise<Pool | undefined> {
		const pool = await this.kv.get<Pool>(POOL_KEY + id);
		return isCurrent(pool) ? current(pool) : undefined;
	}

	async list(): Promise<Pool[]> {
		const rows = await this.kv.entries<Pool>(POOL_KEY);
		return rows
			.map(([, p]) => p)
			.filter(isCurrent)
			.map(current)
			.sort((a, b) => a.createdAt - b.createdAt);
	}

	/** Writes the pool, with what it committed as stored now (a new pool: as given). */
	async put(pool: Pool): Promise<void> {
		await this.kv.update<Pool>(POOL_KEY + pool.id, (stored) =>
			isCurrent(stored) ? { ...pool, spentCents: stored.spentCents, spentSince: stored.spentSince ?? stored.createdAt } : pool
		);
	}

	/**
	 * Reads the pool and changes what it committed in one transaction: `change` answers the new
	 * count and when counting began, or null to leave the pool as it is. Resolves with the pool as
	 * stored after, or undefined when it no longer exists.
	 */
	async changeSpend(id: string, change: (pool: Pool) => Pick<Pool, 'spentCents' | 'spentSince'> | null): Promise<Pool | undefined> {
		const stored = await this.kv.update<Pool>(POOL_KEY + id, (found) => {
			if (!isCurrent(found)) return undefined;
			const next = change(current(found));
			return next ? { ...found, ...next } : undefined;
		});
		return isCurrent(stored) ? current(stored) : undefined;
	}

	remove(id: string): Promise<void> {
		return this.kv.delete(POOL_KEY + id);
	}
}
