/** Sweep records in the worker's store, one per sweep under `sweep:<id>`. */
import { SWEEP_KEY } from '../../core/protocol/storage-keys';
import type { KeyValueStore, WriteOptions } from '../../core/worker/kv-store';
import { SWEEP_SCHEMA_VERSION, type SweepRecord } from '../protocol/sweep';

export class SweepRepo {
	constructor(private readonly kv: KeyValueStore) {}

	async get(id: string): Promise<SweepRecord | undefined> {
		const record = await this.kv.get<SweepRecord>(SWEEP_KEY + id);
		return record?.schemaVersion === SWEEP_SCHEMA_VERSION ? record : undefined;
	}

	async list(): Promise<SweepRecord[]> {
		const rows = await this.kv.entries<SweepRecord>(SWEEP_KEY);
		return rows
			.map(([, r]) => r)
			.filter((r) => r.schemaVersion === SWEEP_SCHEMA_VERSION)
			.sort((a, b) => b.createdAt - a.createdAt);
	}

	put(sweep: SweepRecord, options: WriteOptions = {}): Promise<void> {
		return this.kv.set(SWEEP_KEY + sweep.id, sweep, options);
	}

	async removeProfile(profileId: string): Promise<void> {
		for (const sweep of await this.list()) if (sweep.profileId === profileId) await this.kv.delete(SWEEP_KEY + sweep.id);
	}
}
