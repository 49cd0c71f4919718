/**
 * The price each run on a paid member holds, kept in the worker's store (`poolhold:<run id>`) from
 * before it is sent until it ends, so a reload does not forget which price a run may give back.
 * Giving back goes through a claim made in one transaction with its read: of two tabs (or a move and
 * the run's end event) only one gets the hold, so a price is given back at most once. A hold that
 * cannot be written or read back leaves its price counted: overcounting is the side that never
 * spends money unasked.
 */
import { POOL_HOLD_KEY } from '../../core/protocol/storage-keys';
import type { KeyValueStore } from '../../core/worker/kv-store';
import { isStorageFull } from '../../core/worker/quota';
import { parseStoredHold, type SpendHold, type StoredHold } from '../rules/spend-hold';

export class SpendHolds {
	constructor(private readonly kv: KeyValueStore) {}

	/** Keeps what `runId` holds; on a full device it is not kept (its price then stays counted). */
	async keep(runId: string, hold: SpendHold): Promise<void> {
		const stored: StoredHold = { ...hold, claimed: false };
		try {
			await this.kv.set(POOL_HOLD_KEY + runId, stored);
		} catch (error) {
			if (!isStorageFull(error)) throw error;
		}
	}

	/** The hold of `runId` if this call is the one to give it back; null when there is none, or another took it. */
	async claim(runId: string): Promise<SpendHold | null> {
		let claimed: SpendHold | null = null;
		await this.kv.update<unknown>(POOL_HOLD_KEY + runId, (value) => {
			const hold = parseStoredHold(value);
			if (!hold || hold.claimed) return undefined;
			const { claimed: _taken, ...held } = hold;
			void _taken;
			claimed = held;
			return { ...hold, claimed: true } satisfies StoredHold;
		});
		return claimed;
	}

	/** The run ended: what it held is settled either way. */
	drop(runId: string): Promise<void> {
		return this.kv.delete(POOL_HOLD_KEY + runId);
	}
}
