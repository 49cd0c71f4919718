import { describe, expect, it } from 'vitest';
import { MemoryStore } from './kv-store';
import { RunsRepo } from '../../workflows/worker/runs-repo';
import { newWorkflowRun, type WorkflowRun } from '../../workflows/rules/run-record';
import { QuotaWatchingStore } from './quota-watching-store';
import { StorageFullError } from './quota';

const full = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

/** A store over a device that refuses every write while `refuse` is true. */
function device() {
	const inner = new MemoryStore();
	const state = { refuse: true, notices: 0, clock: 0 };
	const set = inner.set.bind(inner);
	inner.set = async (key, value) => (state.refuse ? Promise.reject(full()) : set(key, value));
	const kv = new QuotaWatchingStore(
		inner,
		() => state.notices++,
		() => state.clock
	);
	/** Writes past the refusal, as if stored before the device filled up. */
	const stored = (key: string, value: unknown) => set(key, value);
	return { inner, kv, state, stored };
}

describe('noticing a full device on any write', () => {
	it('tells once per burst of refused writes', async () => {
		const { kv, state } = device();
		await kv.set('run:1', { status: 'running' });
		await kv.set('run:1', { status: 'running' });
		expect(state.notices).toBe(1);
		state.clock += 10_000;
		await kv.set('run:1', { status: 'done' });
		expect(state.notices).toBe(2);
	});

	it.each([
		['a Blob', new Blob([new Uint8Array(8)])],
		['an ArrayBuffer', new ArrayBuffer(8)],
		['a typed array', new Uint8Array(8)]
	])('hands a refused write of bytes (%s) back to its caller, and does not hold it', async (_, bytes) => {
		const { kv, state } = device();
		await expect(kv.set('wfo:run:0', bytes)).rejects.toThrow('quota');
		expect(state.notices).toBe(1);
		expect(await kv.get('wfo:run:0')).toBeUndefined();
		expect(kv.unsavedCount).toBe(0);
	});

	it('refuses a change in place on a full device to its caller, with a notice, and keeps the stored record', async () => {
		const { inner, kv, state, stored } = device();
		await stored('pool:p', { spent: 10 });
		const update = inner.update.bind(inner);
		inner.update = async (key, change) => (state.refuse ? Promise.reject(full()) : update(key, change));
		await expect(kv.update<{ spent: number }>('pool:p', (p) => p && { spent: p.spent + 5 })).rejects.toBeInstanceOf(StorageFullError);
		expect(state.notices).toBe(1);
		expect(await kv.get('pool:p')).toEqual({ spent: 10 });
		state.refuse = false;
		expect(await kv.update<{ spent: number }>('pool:p', (p) => p && { spent: p.spent + 5 })).toEqual({ spent: 15 });
	});

	it('other failures pass through without a notice', async () => {
		const inner = new MemoryStore();
		inner.set = async () => Promise.reject(new Error('database closed'));
		let notices = 0;
		const kv = new QuotaWatchingStore(inner, () => notices++);
		await expect(kv.set('k', 1)).rejects.toThrow('database closed');
		expect(notices).toBe(0);
	});
});

describe('a refused record is kept in memory and every read sees it', () => {
	it('get, getMany, keys, firstKey, entries and newest merge it with what is stored, in key order', async () => {
		const { kv, state, stored } = device();
		await stored('tl:1', 'stored one');
		await stored('tl:3', 'stored three');
		await kv.set('tl:2', 'kept two');
		await kv.set('tl:4', 'kept four');
		await kv.set('other', 'elsewhere');

		expect(await kv.get('tl:2')).toBe('kept two');
		expect(await kv.getMany(['tl:1', 'tl:2'])).toEqual(['stored one', 'kept two']);
		expect(await kv.keys('tl:')).toEqual(['tl:1', 'tl:2', 'tl:3', 'tl:4']);
		expect(await kv.entries('tl:')).toEqual([
			['tl:1', 'stored one'],
			['tl:2', 'kept two'],
			['tl:3', 'stored three'],
			['tl:4', 'kept four']
		]);
		expect(await kv.newest('tl:', 2)).toEqual([
			['tl:4', 'kept four'],
			['tl:3', 'stored three']
		]);
		expect(await kv.between('tl:1', 'tl:4')).toEqual([
			['tl:2', 'kept two'],
			['tl:3', 'stored three'],
			['tl:4', 'kept four']
		]);
		// A page ends at its last stored key: what is kept past it comes with the next page, once.
		expect(await kv.between('tl:', 'tl:\uffff', 1)).toEqual([['tl:1', 'stored one']]);
		expect(await kv.between('tl:1', 'tl:\uffff', 1)).toEqual([
			['tl:2', 'kept two'],
			['tl:3', 'stored three']
		]);
		expect(await kv.between('tl:3', 'tl:\uffff', 1)).toEqual([['tl:4', 'kept four']]);
		expect(await kv.firstKey('tl:2', 'tl:\uffff')).toBe('tl:2');
		expect(await kv.firstKey('tl:31', 'tl:\uffff')).toBe('tl:4');
		expect(state.notices).toBe(1);
	});

	it('a newer refused write of a stored key wins over the stored value; an accepted one replaces it', async () => {
		const { inner, kv, state, stored } = device();
		await stored('run:1', { status: 'running' });
		await kv.set('run:1', { status: 'succeeded' });
		expect(await kv.get('run:1')).toEqual({ status: 'succeeded' });
		expect(await kv.entries('run:')).toEqual([['run:1', { status: 'succeeded' }]]);

		state.refuse = false;
		await kv.set('run:1', { status: 'succeeded', seen: true });
		expect(kv.unsavedCount).toBe(0);
		expect(await inner.get('run:1')).toEqual({ status: 'succeeded', seen: true });
	});

	it('delete and clear forget it', async () => {
		const { kv } = device();
		await kv.set('a', 1);
		await kv.delete('a');
		expect(await kv.get('a')).toBeUndefined();
		await kv.set('b', 2);
		await kv.clear();
		expect(await kv.keys()).toEqual([]);
	});

	it('a read while the write is in flight sees the value being written, whether the device then takes it or not', async () => {
		for (const refuse of [true, false]) {
			const { inner, kv, state, stored } = device();
			state.refuse = refuse;
			await stored('run:1', { status: 'running' });
			// The device answers late, as IndexedDB does near its quota; reads queued behind see the old value.
			let answer: () => void = () => {};
			const set = inner.set.bind(inner);
			inner.set = (key, value) => new Promise<void>((resolve) => (answer = resolve)).then(() => set(key, value));
			const writing = kv.set('run:1', { status: 'succeeded', outputs: [{ filename: 'a.png' }] });
			expect(await kv.get('run:1')).toEqual({ status: 'succeeded', outputs: [{ filename: 'a.png' }] });
			expect(await kv.entries('run:')).toEqual([['run:1', { status: 'succeeded', outputs: [{ filename: 'a.png' }] }]]);
			answer();
			await writing;
			expect(await kv.get('run:1')).toEqual({ status: 'succeeded', outputs: [{ filename: 'a.png' }] });
		}
	});

	it('keeps a copy, not the caller’s object', async () => {
		const { kv } = device();
		const value = { status: 'running' };
		await kv.set('run:1', value);
		value.status = 'changed';
		expect(await kv.get('run:1')).toEqual({ status: 'running' });
	});

	it('a run followed on a full device is found by id, by prompt id, in the list and among the open runs', async () => {
		const { kv } = device();
		const runs = new RunsRepo(kv);
		const run: WorkflowRun = {
			...newWorkflowRun({
				id: 'r1',
				profileId: 'p',
				title: 'Text to image',
				workflowId: null,
				prompt: {},
				seeds: {},
				partner: false,
				now: 1
			}),
			promptId: 'job-1',
			status: 'running'
		};
		await runs.put(run);
		expect((await runs.get('r1'))?.status).toBe('running');
		expect((await runs.byPromptId('job-1'))?.id).toBe('r1');
		expect((await runs.open()).map((r) => r.id)).toEqual(['r1']);

		await runs.put({ ...run, status: 'succeeded', finishedAt: 2 });
		expect((await runs.list()).map((r) => [r.id, r.status])).toEqual([['r1', 'succeeded']]);
		expect(await runs.open()).toEqual([]);
	});
});

describe('records come before cached output bytes', () => {
	/** A device of `capacity` bytes (a record counts its JSON, bytes their length) holding three saved outputs. */
	function nearlyFull(capacity: number) {
		const inner = new MemoryStore();
		const sizes = new Map<string, number>();
		const sizeOf = (v: unknown) => (v instanceof Uint8Array ? v.byteLength : (JSON.stringify(v) ?? '').length);
		const used = () => [...sizes.values()].reduce((a, b) => a + b, 0);
		const set = inner.set.bind(inner);
		const del = inner.delete.bind(inner);
		inner.set = async (key, value) => {
			const next = used() - (sizes.get(key) ?? 0) + sizeOf(value);
			if (next > capacity) throw full();
			sizes.set(key, sizeOf(value));
			await set(key, value);
		};
		inner.delete = async (key) => {
			sizes.delete(key);
			await del(key);
		};
		inner.update = async <T>(key: string, change: (value: T | undefined) => T | undefined) => {
			const next = change(structuredClone(await inner.get<T>(key)));
			if (next === undefined) return inner.get<T>(key);
			await inner.set(key, next);
			return next;
		};
		const removedOutputs: string[] = [];
		const kv = new QuotaWatchingStore(inner, () => {});
		// Oldest first, as the storage service removes them.
		kv.makeRoom = async () => {
			const oldest = (await kv.keys('output:'))[0];
			if (!oldest) return 0;
			await kv.delete(oldest);
			removedOutputs.push(oldest);
			return 1;
		};
		return { inner, kv, removedOutputs, used };
	}

	it('a run record refused by a full device removes the oldest saved outputs and is written', async () => {
		const { inner, kv, removedOutputs } = nearlyFull(3_100);
		for (const id of ['a', 'b', 'c']) await kv.set(`output:${id}:0`, new Uint8Array(1_000));
		await kv.set('run:new', { status: 'queued', prompt: 'x'.repeat(200) }, { required: true });
		expect(await inner.get('run:new')).toMatchObject({ status: 'queued' });
		expect(removedOutputs).toEqual(['output:a:0']);
		expect(await inner.keys('output:')).toEqual(['output:b:0', 'output:c:0']);
	});

	it('a change in place refused by a full device removes the oldest saved outputs and is written, as a required record is', async () => {
		const { inner, kv, removedOutputs } = nearlyFull(3_100);
		for (const id of ['a', 'b', 'c']) await kv.set(`output:${id}:0`, new Uint8Array(1_000));
		const pool = await kv.update<{ spent: number; name: string }>('pool:p', () => ({ spent: 15, name: 'x'.repeat(200) }));
		expect(pool?.spent).toBe(15);
		expect(await inner.get('pool:p')).toMatchObject({ spent: 15 });
		expect(removedOutputs).toEqual(['output:a:0']);
	});

	it('a required record that still does not fit is refused to its caller, not held in memory', async () => {
		const { kv } = nearlyFull(100);
		await expect(kv.set('modelrun:1', { body: 'x'.repeat(500) }, { required: true })).rejects.toThrow(StorageFullError);
		expect(await kv.get('modelrun:1')).toBeUndefined();
		expect(kv.unsavedCount).toBe(0);
	});

	it('an ordinary record that does not fit is still held in memory for the session', async () => {
		const { kv } = nearlyFull(100);
		await kv.set('run:1', { body: 'x'.repeat(500) });
		expect(await kv.get('run:1')).toMatchObject({ body: expect.any(String) });
		expect(kv.unsavedCount).toBe(1);
	});

	it('output bytes never make room by removing other outputs', async () => {
		const { kv, removedOutputs } = nearlyFull(2_500);
		for (const id of ['a', 'b']) await kv.set(`output:${id}:0`, new Uint8Array(1_000));
		await expect(kv.set('output:c:0', new Uint8Array(1_000))).rejects.toThrow('quota');
		expect(removedOutputs).toEqual([]);
	});
});
