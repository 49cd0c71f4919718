/** Sweep records in the worker's store, one per sweep under `sweep:<id>`, each read through `parseSweepRecord`. */
import { SWEEP_KEY } from '../../core/protocol/storage-keys';
import type { KeyValueStore, WriteOptions } from '../../core/worker/kv-store';
import type { SweepRecord } from '../protocol/sweep';
import { parseSweepRecord } from '../rules/sweep-record';

export class SweepRepo {
	constructor(private readonly kv: KeyValueStore) {}

	/** The sweep, or undefined when there is none or what is stored is not one (it is left as it is, unread). */
	async get(id: string): Promise<SweepRecord | undefined> {
		const stored = await this.kv.get<unknown>(SWEEP_KEY + id);
		if (stored === undefined) return undefined;
		const parsed = parseSweepRecord(stored);
		return parsed.ok ? parsed.value : undefined;
	}

	/** Every readable sweep, newest first; a record that is not a sweep is passed over. */
	async list(): Promise<SweepRecord[]> {
		const rows = await this.kv.entries<unknown>(SWEEP_KEY);
		return rows
			.flatMap(([, stored]) => {
				const parsed = parseSweepRecord(stored);
				return parsed.ok ? [parsed.value] : [];
			})
			.sort((a, b) => b.createdAt - a.createdAt);
	}

	put(sweep: SweepRecord, options: WriteOptions = {}): Promise<void> {
		return this.kv.set(SWEEP_KEY + sweep.id, sweep, options);
	}

	delete(id: string): Promise<void> {
		return this.kv.delete(SWEEP_KEY + id);
	}

	/** Removes the sweeps of a profile; returns their ids. */
	async removeProfile(profileId: string): Promise<string[]> {
		const removed: string[] = [];
		for (const sweep of await this.list()) {
			if (sweep.profileId !== profileId) continue;
			await this.kv.delete(SWEEP_KEY + sweep.id);
			removed.push(sweep.id);
		}
		return removed;
	}
}
