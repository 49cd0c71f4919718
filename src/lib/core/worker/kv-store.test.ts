import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { IdbStore, MemoryStore, type KeyValueStore } from './kv-store';

let n = 0;
const backends: Array<[string, () => KeyValueStore]> = [
	['memory', () => new MemoryStore()],
	['IndexedDB', () => new IdbStore(`test-${++n}`, 'kv')]
];

describe.each(backends)('the %s store', (_name, make) => {
	it('reads back what it wrote, and forgets what it deleted', async () => {
		const kv = make();
		await kv.set('run:1', { a: 1 });
		expect(await kv.get('run:1')).toEqual({ a: 1 });
		await kv.delete('run:1');
		expect(await kv.get('run:1')).toBeUndefined();
	});

	it('changes a record in place, and two changes at once both count', async () => {
		const kv = make();
		await kv.set('pool:p', { spent: 10 });
		const add = (n: number) => kv.update<{ spent: number }>('pool:p', (p) => (p ? { spent: p.spent + n } : undefined));
		await Promise.all([add(5), add(7)]);
		expect(await kv.get('pool:p')).toEqual({ spent: 22 });
		// Left as it is: answered undefined, or no record to change.
		expect(await kv.update('pool:p', () => undefined)).toEqual({ spent: 22 });
		expect(await add(1).then(() => kv.update('pool:none', (p) => p))).toBeUndefined();
		expect(await kv.keys('pool:')).toEqual(['pool:p']);
	});

	it('reads many keys at once, in the order asked, a missing one as undefined', async () => {
		const kv = make();
		await kv.setMany([
			['tl:1', 'one'],
			['tl:2', 'two']
		]);
		expect(await kv.getMany(['tl:2', 'tl:9', 'tl:1'])).toEqual(['two', undefined, 'one']);
		expect(await kv.getMany([])).toEqual([]);
	});

	it('lists exactly the keys and entries under a prefix, in key order', async () => {
		const kv = make();
		for (const key of ['run:b', 'run:a', 'runx', 'run', 'output:run:a:0', 'modelrun:z']) await kv.set(key, key);
		expect(await kv.keys('run:')).toEqual(['run:a', 'run:b']);
		expect(await kv.entries('run:')).toEqual([
			['run:a', 'run:a'],
			['run:b', 'run:b']
		]);
		expect((await kv.keys('')).length).toBe(6);
		expect(await kv.newest('run:', 1)).toEqual([['run:b', 'run:b']]);
		expect((await kv.newest('run:', 10)).map(([k]) => k)).toEqual(['run:b', 'run:a']);
		await kv.clear();
		expect(await kv.keys()).toEqual([]);
	});

	it('finds the first key of a range, bounds included, without its records', async () => {
		const kv = make();
		for (const key of ['sc:3', 'sc:7', 'sc:9', 'tl:1']) await kv.set(key, key);
		expect(await kv.firstKey('sc:4', 'sc:\uffff')).toBe('sc:7');
		expect(await kv.firstKey('sc:7', 'sc:8')).toBe('sc:7');
		expect(await kv.firstKey('sc:', 'sc:3')).toBe('sc:3');
		expect(await kv.firstKey('sc:91', 'sc:\uffff')).toBeUndefined();
		expect(await kv.firstKey('sc:8', 'sc:7')).toBeUndefined();
	});

	it('deletes many keys at once, leaving the others', async () => {
		const kv = make();
		for (const key of ['run:a', 'run:b', 'output:a:0', 'run:c']) await kv.set(key, key);
		await kv.deleteMany(['run:a', 'output:a:0', 'run:b', 'never-written']);
		expect(await kv.keys()).toEqual(['run:c']);
	});
});

describe('the IndexedDB store', () => {
	it('deletes a batch in one transaction, so a reload meanwhile cannot leave half of it', async () => {
		const kv = new IdbStore(`test-${++n}`, 'kv');
		const keys = Array.from({ length: 30 }, (_, i) => `run:${i}`);
		for (const key of keys) await kv.set(key, key);
		const transaction = vi.spyOn(IDBDatabase.prototype, 'transaction');
		try {
			await kv.deleteMany(keys);
			expect(transaction).toHaveBeenCalledTimes(1);
			expect(transaction.mock.calls[0]?.[1]).toBe('readwrite');
		} finally {
			transaction.mockRestore();
		}
		expect(await kv.keys()).toEqual([]);
	});
});
