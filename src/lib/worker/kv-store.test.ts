import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
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
});
