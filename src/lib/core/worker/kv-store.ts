/**
 * The key-value storage the worker keeps everything in, behind one interface: IndexedDB through
 * idb-keyval in the browser, a Map in unit tests.
 */
import { clear, createStore, del, delMany, get, getMany, promisifyRequest, set, setMany, type UseStore } from 'idb-keyval';

export interface WriteOptions {
	/**
	 * The record must reach the device (a run record, its idempotency key, an outbox entry): room is
	 * made for it, and if it still cannot be written the call rejects instead of holding it in memory,
	 * so the caller can stop before sending anything.
	 */
	required?: boolean;
}

export interface KeyValueStore {
	get<T>(key: string): Promise<T | undefined>;
	/** Reads every key in one transaction: one wait behind a long write, not one per key. */
	getMany<T>(keys: string[]): Promise<Array<T | undefined>>;
	set(key: string, value: unknown, options?: WriteOptions): Promise<void>;
	/**
	 * Reads a record, changes it and writes it back in one transaction, so two tabs changing it at
	 * once both count (a pool's spend). `change` is synchronous; it answers undefined to leave the
	 * record as it is. Resolves with the record as stored after.
	 */
	update<T>(key: string, change: (value: T | undefined) => T | undefined): Promise<T | undefined>;
	/** Writes every record in one transaction (a run's timeline entry and its search text). */
	setMany(rows: Array<[string, unknown]>): Promise<void>;
	delete(key: string): Promise<void>;
	/** Deletes every key in one transaction: all of them or, if it fails or the page goes away, none. */
	deleteMany(keys: string[]): Promise<void>;
	keys(prefix?: string): Promise<string[]>;
	/** The first key with `from <= key <= upTo`, if any: where a range begins, without reading its records or its other keys. */
	firstKey(from: string, upTo: string): Promise<string | undefined>;
	entries<T>(prefix: string): Promise<Array<[string, T]>>;
	/**
	 * Entries with `after < key <= upTo`, in key order: a slice of a time-ordered prefix (the runs of
	 * the last day). With `limit`, the first `limit` of them (a page: each page is its own
	 * transaction, so another read is not kept waiting behind a read of everything).
	 */
	between<T>(after: string, upTo: string, limit?: number): Promise<Array<[string, T]>>;
	/** The last `limit` entries under a prefix in key order, last first (newest first for time-ordered keys). */
	newest<T>(prefix: string, limit: number): Promise<Array<[string, T]>>;
	clear(): Promise<void>;
}

export class IdbStore implements KeyValueStore {
	private readonly store: UseStore;

	constructor(dbName = 'runboard', storeName = 'kv') {
		this.store = createStore(dbName, storeName);
	}

	get<T>(key: string): Promise<T | undefined> {
		return get<T>(key, this.store);
	}
	getMany<T>(keys: string[]): Promise<Array<T | undefined>> {
		return keys.length === 0 ? Promise.resolve([]) : getMany<T>(keys, this.store);
	}
	set(key: string, value: unknown): Promise<void> {
		return set(key, value, this.store);
	}
	setMany(rows: Array<[string, unknown]>): Promise<void> {
		return setMany(rows, this.store);
	}
	update<T>(key: string, change: (value: T | undefined) => T | undefined): Promise<T | undefined> {
		return this.store('readwrite', (s) => {
			const read = s.get(key) as IDBRequest<T | undefined>;
			return new Promise<T | undefined>((resolve, reject) => {
				read.onsuccess = () => {
					let next: T | undefined;
					try {
						next = change(read.result);
					} catch (error) {
						return reject(error);
					}
					if (next === undefined) return resolve(read.result);
					s.put(next, key);
					// Resolved once the write is on the device: a refused write (a full disk) rejects.
					promisifyRequest(s.transaction).then(() => resolve(next), reject);
				};
				read.onerror = () => reject(read.error);
			});
		});
	}
	delete(key: string): Promise<void> {
		return del(key, this.store);
	}
	deleteMany(keys: string[]): Promise<void> {
		return delMany(keys, this.store);
	}
	/** Keys sort as strings, so every key with a prefix lies in one range: read only that range. */
	private static range(prefix: string): IDBKeyRange | undefined {
		return prefix === '' ? undefined : IDBKeyRange.bound(prefix, `${prefix}\uffff`);
	}
	keys(prefix = ''): Promise<string[]> {
		return this.store('readonly', (s) => promisifyRequest(s.getAllKeys(IdbStore.range(prefix)))).then((ks) => ks.map(String));
	}
	firstKey(from: string, upTo: string): Promise<string | undefined> {
		if (upTo < from) return Promise.resolve(undefined);
		return this.store('readonly', (s) => promisifyRequest(s.getKey(IDBKeyRange.bound(from, upTo)))).then((k) =>
			k === undefined ? undefined : String(k)
		);
	}
	entries<T>(prefix: string): Promise<Array<[string, T]>> {
		const range = IdbStore.range(prefix);
		return this.store('readonly', (s) =>
			Promise.all([promisifyRequest(s.getAllKeys(range)), promisifyRequest(s.getAll(range) as IDBRequest<T[]>)]).then(([ks, vs]) =>
				ks.map((k, i): [string, T] => [String(k), vs[i] as T])
			)
		);
	}
	between<T>(after: string, upTo: string, limit?: number): Promise<Array<[string, T]>> {
		if (!(after < upTo)) return Promise.resolve([]);
		const range = IDBKeyRange.bound(after, upTo, true, false);
		return this.store('readonly', (s) =>
			Promise.all([promisifyRequest(s.getAllKeys(range, limit)), promisifyRequest(s.getAll(range, limit) as IDBRequest<T[]>)]).then(
				([ks, vs]) => ks.map((k, i): [string, T] => [String(k), vs[i] as T])
			)
		);
	}
	newest<T>(prefix: string, limit: number): Promise<Array<[string, T]>> {
		return this.store('readonly', (s) => {
			const out: Array<[string, T]> = [];
			const request = s.openCursor(IdbStore.range(prefix), 'prev');
			return new Promise((resolve, reject) => {
				request.onsuccess = () => {
					const cursor = request.result;
					if (!cursor || out.length >= limit) return resolve(out);
					out.push([String(cursor.key), cursor.value as T]);
					cursor.continue();
				};
				request.onerror = () => reject(request.error);
			});
		});
	}
	clear(): Promise<void> {
		return clear(this.store);
	}
}

export class MemoryStore implements KeyValueStore {
	private readonly map = new Map<string, unknown>();

	async get<T>(key: string): Promise<T | undefined> {
		return structuredClone(this.map.get(key)) as T | undefined;
	}
	async getMany<T>(keys: string[]): Promise<Array<T | undefined>> {
		return keys.map((key) => structuredClone(this.map.get(key)) as T | undefined);
	}
	async set(key: string, value: unknown): Promise<void> {
		this.map.set(key, structuredClone(value));
	}
	async setMany(rows: Array<[string, unknown]>): Promise<void> {
		for (const [key, value] of rows) this.map.set(key, structuredClone(value));
	}
	async update<T>(key: string, change: (value: T | undefined) => T | undefined): Promise<T | undefined> {
		const next = change(structuredClone(this.map.get(key)) as T | undefined);
		if (next !== undefined) this.map.set(key, structuredClone(next));
		return structuredClone(this.map.get(key)) as T | undefined;
	}
	async delete(key: string): Promise<void> {
		this.map.delete(key);
	}
	async deleteMany(keys: string[]): Promise<void> {
		for (const key of keys) this.map.delete(key);
	}
	// Sorted like IndexedDB's keys, so both backends keep one contract.
	async keys(prefix = ''): Promise<string[]> {
		return [...this.map.keys()].filter((k) => k.startsWith(prefix)).sort();
	}
	async firstKey(from: string, upTo: string): Promise<string | undefined> {
		// Keys in the range share the bounds' common prefix: a cheap test before comparing strings.
		let common = 0;
		while (common < from.length && from[common] === upTo[common]) common++;
		const prefix = from.slice(0, common);
		let first: string | undefined;
		for (const k of this.map.keys()) if (k.startsWith(prefix) && k >= from && k <= upTo && (first === undefined || k < first)) first = k;
		return first;
	}
	async entries<T>(prefix: string): Promise<Array<[string, T]>> {
		return (await this.keys(prefix)).map((k) => [k, structuredClone(this.map.get(k)) as T]);
	}
	async between<T>(after: string, upTo: string, limit?: number): Promise<Array<[string, T]>> {
		const keys = [...this.map.keys()]
			.filter((k) => k > after && k <= upTo)
			.sort()
			.slice(0, limit);
		return keys.map((k) => [k, structuredClone(this.map.get(k)) as T]);
	}
	async newest<T>(prefix: string, limit: number): Promise<Array<[string, T]>> {
		return (await this.entries<T>(prefix)).reverse().slice(0, limit);
	}
	async clear(): Promise<void> {
		this.map.clear();
	}
}
