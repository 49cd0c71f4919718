/**
 * Every write of the worker passes here, so a full device is noticed wherever it happens (a run's
 * record, a workflow, an output) and the person is told once per episode, with "Free space" at hand.
 * The error still reaches the caller, which decides what can be kept instead.
 */
import type { KeyValueStore } from '../kv-store';
import { isQuotaError } from './quota';

/** One notice per burst of failing writes: a run's progress can hit the quota many times a second. */
const NOTICE_EVERY_MS = 10_000;

export class QuotaWatchingStore implements KeyValueStore {
	private lastNotice = -Infinity;

	constructor(
		private readonly inner: KeyValueStore,
		private readonly onFull: () => void,
		private readonly now: () => number = () => Date.now()
	) {}

	async set(key: string, value: unknown): Promise<void> {
		try {
			await this.inner.set(key, value);
		} catch (error) {
			if (isQuotaError(error) && this.now() - this.lastNotice >= NOTICE_EVERY_MS) {
				this.lastNotice = this.now();
				this.onFull();
			}
			throw error;
		}
	}

	get<T>(key: string): Promise<T | undefined> {
		return this.inner.get<T>(key);
	}
	delete(key: string): Promise<void> {
		return this.inner.delete(key);
	}
	deleteMany(keys: string[]): Promise<void> {
		return this.inner.deleteMany(keys);
	}
	keys(prefix?: string): Promise<string[]> {
		return this.inner.keys(prefix);
	}
	entries<T>(prefix: string): Promise<Array<[string, T]>> {
		return this.inner.entries<T>(prefix);
	}
	newest<T>(prefix: string, limit: number): Promise<Array<[string, T]>> {
		return this.inner.newest<T>(prefix, limit);
	}
	clear(): Promise<void> {
		return this.inner.clear();
	}
}
