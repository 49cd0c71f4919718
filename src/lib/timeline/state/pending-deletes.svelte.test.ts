import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PendingDeletes } from './pending-deletes.svelte';
import { DEFAULT_TIMINGS } from '../../core/protocol/app-timings';

const UNDO_MS = DEFAULT_TIMINGS.undoMs;

describe('delete with undo', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	function tab() {
		const deleted: string[][] = [];
		const gone: string[][] = [];
		const store = new PendingDeletes(() => Date.now());
		store.start(
			async (ids) => void deleted.push(ids),
			(ids) => void gone.push(ids)
		);
		return { store, deleted, gone };
	}

	it('deletes nothing until the window ends, then deletes and un-hides', async () => {
		const { store, deleted } = tab();
		store.delete(['a', 'b']);
		expect([...store.hidden]).toEqual(['a', 'b']);
		await vi.advanceTimersByTimeAsync(UNDO_MS - 1);
		expect(deleted).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		expect(deleted).toEqual([['a', 'b']]);
		expect(store.hidden.size).toBe(0);
		expect(store.batches).toEqual([]);
	});

	it('undo brings the runs back and nothing is ever deleted', async () => {
		const { store, deleted } = tab();
		const batch = store.delete(['a']);
		store.undo(batch.id);
		expect(store.hidden.size).toBe(0);
		await vi.advanceTimersByTimeAsync(UNDO_MS * 2);
		expect(deleted).toEqual([]);
	});

	it('uses the window the runtime config sets, for deletes made after it is set', async () => {
		const { store, deleted } = tab();
		store.setWindow({ ms: 1500, graceMs: 500 });
		const batch = store.delete(['a']);
		expect(batch.until).toBe(Date.now() + 1500);
		await vi.advanceTimersByTimeAsync(1499);
		expect(deleted).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		expect(deleted).toEqual([['a']]);
	});
});
