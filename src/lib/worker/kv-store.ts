/**
 * The key-value storage the worker keeps everything in, behind one interface: IndexedDB through
 * idb-keyval in the browser, a Map in unit tests.
 */
import { clear, createStore, del, entries, get, keys, set, type UseStore } from 'idb-keyval';

export interface KeyValueStore {
	get<T>(key: string): Promise<T | undefined>;
	set(key: string, value: unknown): Promise<void>;
	delete(key: string): Promise<void>;
	keys(prefix?: string): Promise<string[]>;
	entries<T>(prefix: string): Promise<Array<[string, T]>>;
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
	set(key: string, value: unknown): Promise<void> {
		return set(key, value, this.store);
	}
	delete(key: string): Promise<void> {
		return del(key, this.store);
	}
	async keys(prefix = ''): Promise<string[]> {
		return (await keys(this.store)).map(String).filter((k) => k.startsWith(prefix));
	}
	async entries<T>(prefix: string): Promise<Array<[string, T]>> {
		return (await entries<IDBValidKey, T>(this.store)).filter(([k]) => String(k).startsWith(prefix)).map(([k, v]) => [String(k), v]);
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
	async set(key: string, value: unknown): Promise<void> {
		this.map.set(key, structuredClone(value));
	}
	async delete(key: string): Promise<void> {
		this.map.delete(key);
	}
	async keys(prefix = ''): Promise<string[]> {
		return [...this.map.keys()].filter((k) => k.startsWith(prefix));
	}
	async entries<T>(prefix: string): Promise<Array<[string, T]>> {
		return [...this.map.entries()].filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k, structuredClone(v) as T]);
	}
	async clear(): Promise<void> {
		this.map.clear();
	}
}
