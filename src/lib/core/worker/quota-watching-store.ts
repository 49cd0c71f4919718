/**
 * Every write of the worker passes here, so a full device is noticed wherever it happens (a run's
 * record, a workflow, an output) and the person is told once per episode, with "Free space" at hand.
 *
 * A refused record (a run, its timeline entry, a workflow) is kept in memory instead, and every read
 * sees it, so nothing upstream stops: a run is followed to its end and shown, only not kept past this
 * session. A record being written is read as written, even before the device answers: a refusal
 * arrives only after reads queued behind the write have seen the old value. Refused bytes (a Blob or a buffer: outputs, model results) are not held in memory; their
 * error reaches the caller, which shows them from the service and marks them not saved.
 */
import type { KeyValueStore, WriteOptions } from './kv-store';
import { isQuotaError, StorageFullError } from './quota';

/** One notice per burst of failing writes: a run's progress can hit the quota many times a second. */
const NOTICE_EVERY_MS = 10_000;
/** Rounds of making room before a record is given up on: each removes the oldest saved outputs. */
const ROOM_ROUNDS = 4;
/** Room asked for per round: records are small, so a little more than the record frees several writes' worth. */
const ROOM_MIN_BYTES = 64 * 1024;

/**
 * Removes saved output bytes (oldest first) until about `bytes` are freed; returns how many outputs
 * went (0: nothing left to remove).
 */
export type MakeRoom = (bytes: number) => Promise<number>;

const approximateBytes = (value: unknown): number => {
	try {
		return (JSON.stringify(value) ?? '').length * 2;
	} catch {
		return ROOM_MIN_BYTES;
	}
};

function isBytes(value: unknown): boolean {
	return value instanceof Blob || value instanceof ArrayBuffer || ArrayBuffer.isView(value);
}

export class QuotaWatchingStore implements KeyValueStore {
	private lastNotice = -Infinity;
	/** When making room last found nothing to remove: a burst of refused progress writes does not scan again and again. */
	private noRoomAt = -Infinity;
	/** Records the device refused, by key, until a later write of the same key is accepted or it is deleted. */
	private readonly unsaved = new Map<string, unknown>();
	/** Records whose write has not settled yet, by key: the newest write of each. */
	private readonly writing = new Map<string, { value: unknown }>();

	constructor(
		private readonly inner: KeyValueStore,
		private readonly onFull: () => void,
		private readonly now: () => number = () => Date.now(),
		/** Set once the output cache exists (the worker is composed after its store). */
		public makeRoom: MakeRoom | undefined = undefined
	) {}

	/** How many records live only in memory because the device refused them. */
	get unsavedCount(): number {
		return this.unsaved.size;
	}

	async set(key: string, value: unknown, options: WriteOptions = {}): Promise<void> {
		const bytes = isBytes(value);
		const write = bytes ? undefined : { value };
		if (write) this.writing.set(key, write);
		try {
			await this.writeMakingRoom(() => this.inner.set(key, value), approximateBytes(value), bytes, options.required === true);
			this.unsaved.delete(key);
		} catch (error) {
			if (!isQuotaError(error)) throw error;
			if (this.now() - this.lastNotice >= NOTICE_EVERY_MS) {
				this.lastNotice = this.now();
				this.onFull();
			}
			if (bytes) throw error;
			if (options.required) {
				this.unsaved.delete(key);
				throw new StorageFullError(key);
			}
			this.unsaved.set(key, structuredClone(value));
		} finally {
			if (write && this.writing.get(key) === write) this.writing.delete(key);
		}
	}

	/**
	 * Records only (never bytes), in one transaction; on a full device each is written alone, so each
	 * makes room or is held in memory as `set` does.
	 */
	async setMany(rows: Array<[string, unknown]>): Promise<void> {
		const writes = rows.map(([key, value]): [string, { value: unknown }] => [key, { value }]);
		for (const [key, write] of writes) this.writing.set(key, write);
		try {
			await this.inner.setMany(rows);
			for (const [key] of rows) this.unsaved.delete(key);
		} catch (error) {
			if (!isQuotaError(error)) throw error;
			for (const [key, value] of rows) await this.set(key, value);
		} finally {
			for (const [key, write] of writes) if (this.writing.get(key) === write) this.writing.delete(key);
		}
	}

	/**
	 * A record changed in place: in one transaction of the device's store (which sees a write of it
	 * still under way: the device's transactions keep their order), or, when the record lives only in
	 * memory (refused before), changed there and written as `set` does. A full device rejects.
	 */
	async update<T>(key: string, change: (value: T | undefined) => T | undefined): Promise<T | undefined> {
		if (this.unsaved.has(key)) {
			const next = change(this.memoryValue<T>(key));
			if (next === undefined) return this.memoryValue<T>(key);
			await this.set(key, next, { required: true });
			return next;
		}
		try {
			// A change must be stored (a pool's spend): a refused one makes room, as a required `set` does.
			const stored = await this.writeMakingRoom(() => this.inner.update(key, change), ROOM_MIN_BYTES, false, true);
			this.unsaved.delete(key);
			return stored;
		} catch (error) {
			if (!isQuotaError(error)) throw error;
			if (this.now() - this.lastNotice >= NOTICE_EVERY_MS) {
				this.lastNotice = this.now();
				this.onFull();
			}
			throw new StorageFullError(key);
		}
	}

	/** Records come before cached output bytes: a refused record makes room by removing the oldest outputs, then tries again. */
	private async writeMakingRoom<R>(write: () => Promise<R>, size: number, bytes: boolean, required: boolean): Promise<R> {
		for (let round = 0; ; round++) {
			try {
				return await write();
			} catch (error) {
				if (!isQuotaError(error) || bytes || !this.makeRoom || round >= ROOM_ROUNDS) throw error;
				if (!required && this.now() - this.noRoomAt < NOTICE_EVERY_MS) throw error;
				const removed = await this.makeRoom(Math.max(ROOM_MIN_BYTES, size * 2 ** round)).catch(() => 0);
				if (removed === 0) {
					this.noRoomAt = this.now();
					throw error;
				}
			}
		}
	}

	async get<T>(key: string): Promise<T | undefined> {
		if (this.inMemory(key)) return this.memoryValue<T>(key);
		return this.inner.get<T>(key);
	}
	async getMany<T>(keys: string[]): Promise<Array<T | undefined>> {
		const stored = await this.inner.getMany<T>(keys);
		return keys.map((key, i) => (this.inMemory(key) ? this.memoryValue<T>(key) : stored[i]));
	}
	async delete(key: string): Promise<void> {
		this.forget(key);
		await this.inner.delete(key);
	}
	async deleteMany(keys: string[]): Promise<void> {
		for (const key of keys) this.forget(key);
		await this.inner.deleteMany(keys);
	}
	async keys(prefix = ''): Promise<string[]> {
		const stored = await this.inner.keys(prefix);
		// A set: a batch of thousands of records being written, against 100,000 stored keys.
		const storedSet = new Set(stored);
		const extra = this.unsavedKeys(prefix).filter((k) => !storedSet.has(k));
		return extra.length === 0 ? stored : [...stored, ...extra].sort();
	}
	async firstKey(from: string, upTo: string): Promise<string | undefined> {
		const stored = await this.inner.firstKey(from, upTo);
		let first = stored;
		for (const k of [...this.unsaved.keys(), ...this.writing.keys()])
			if (k >= from && k <= upTo && (first === undefined || k < first)) first = k;
		return first;
	}
	async entries<T>(prefix: string): Promise<Array<[string, T]>> {
		const rows = await this.inner.entries<T>(prefix);
		// Both stores hand entries over in key order: with nothing held in memory, 100,000 rows need no sort.
		return this.unsavedKeys(prefix).length === 0 ? rows : this.merge(rows, prefix);
	}
	/** With `limit`, a page may hold a few more: records held in memory that sort inside it. */
	async between<T>(after: string, upTo: string, limit?: number): Promise<Array<[string, T]>> {
		const rows = await this.inner.between<T>(after, upTo, limit);
		// A full page ends at its last key: what is held in memory past it belongs to the next page.
		const end = limit !== undefined && rows.length >= limit ? rows.at(-1)![0] : upTo;
		const extra = [...new Set([...this.unsaved.keys(), ...this.writing.keys()])].filter((k) => k > after && k <= end);
		if (extra.length === 0) return rows;
		const byKey = new Map(rows);
		for (const key of extra) byKey.set(key, this.memoryValue<T>(key));
		return [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	}
	async newest<T>(prefix: string, limit: number): Promise<Array<[string, T]>> {
		// Stored rows past the limit cannot outrank the unsaved ones that make the cut, so `limit` of each suffices.
		return this.merge(await this.inner.newest<T>(prefix, limit), prefix)
			.reverse()
			.slice(0, limit);
	}
	async clear(): Promise<void> {
		this.unsaved.clear();
		this.writing.clear();
		await this.inner.clear();
	}

	private forget(key: string): void {
		this.unsaved.delete(key);
		this.writing.delete(key);
	}

	private inMemory(key: string): boolean {
		return this.writing.has(key) || this.unsaved.has(key);
	}

	/** The value being written, else the refused one. */
	private memoryValue<T>(key: string): T {
		const write = this.writing.get(key);
		return structuredClone(write ? write.value : this.unsaved.get(key)) as T;
	}

	private unsavedKeys(prefix: string): string[] {
		const keys = new Set([...this.unsaved.keys(), ...this.writing.keys()]);
		return [...keys].filter((k) => k.startsWith(prefix));
	}

	/** Stored rows with the ones held in memory (being written or refused), which win, in key order. */
	private merge<T>(rows: Array<[string, T]>, prefix: string): Array<[string, T]> {
		const extra = this.unsavedKeys(prefix);
		if (extra.length === 0) return [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		const byKey = new Map(rows);
		for (const key of extra) byKey.set(key, this.memoryValue<T>(key));
		return [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	}
}
