import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../kv-store';
import { QuotaWatchingStore } from './quota-watching-store';

const full = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

describe('noticing a full device on any write', () => {
	it('tells once per burst of refused writes, and still hands each error to its caller', async () => {
		const inner = new MemoryStore();
		let refuse = true;
		const set = inner.set.bind(inner);
		inner.set = async (key, value) => (refuse ? Promise.reject(full()) : set(key, value));
		let clock = 0;
		let notices = 0;
		const kv = new QuotaWatchingStore(
			inner,
			() => notices++,
			() => clock
		);

		await expect(kv.set('run:1', { status: 'running' })).rejects.toThrow('quota');
		await expect(kv.set('run:1', { status: 'running' })).rejects.toThrow('quota');
		expect(notices).toBe(1);
		clock += 10_000;
		await expect(kv.set('run:1', { status: 'done' })).rejects.toThrow('quota');
		expect(notices).toBe(2);

		refuse = false;
		await kv.set('run:1', { status: 'done' });
		expect(await kv.get('run:1')).toEqual({ status: 'done' });
		expect(notices).toBe(2);
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
