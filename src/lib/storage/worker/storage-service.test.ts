import { describe, expect, it, vi } from 'vitest';
import type { WorkerContext } from '../../core/worker/context';
import { MemoryStore } from '../../core/worker/kv-store';
import { isQuotaError } from '../../core/worker/quota';
import { StorageService } from './storage-service';
import type { SweepHoldings } from './sweep-holdings';

describe('making room on the device', () => {
	it('removes cached outputs of the oldest runs first, until enough is freed', async () => {
		const kv = new MemoryStore();
		await kv.set('run:old', { createdAt: 1 });
		await kv.set('run:new', { createdAt: 9 });
		await kv.set('output:new:0', new Blob([new Uint8Array(100)]));
		await kv.set('output:old:0', new Blob([new Uint8Array(100)]));
		await kv.set('output:old:1', new Blob([new Uint8Array(100)]));
		const api = new StorageService({ kv } as unknown as WorkerContext).api();
		expect(await api.freeOutputSpace({ bytes: 150 })).toEqual({ freed: 200, removed: 2 });
		expect(await kv.keys('output:')).toEqual(['output:new:0']);
		expect((await api.storageStatus({})).outputs).toEqual({ count: 1, bytes: 100 });
	});

	it('counts and frees model result bytes with the workflow outputs, sized from their run records', async () => {
		const kv = new MemoryStore();
		await kv.set('run:wf', { createdAt: 5 });
		await kv.set('output:wf:0', new Blob([new Uint8Array(100)]));
		const body = 'models:bytes:m1:body';
		await kv.set('modelrun:m1', {
			createdAt: 2,
			result: {
				bytesKey: body,
				size: 40,
				assets: [
					{ bytesKey: body, size: 40 },
					{ bytesKey: 'models:bytes:m1:0', size: 300 }
				]
			}
		});
		await kv.set(body, new Uint8Array(40));
		await kv.set('models:bytes:m1:0', new Uint8Array(300));
		const api = new StorageService({ kv } as unknown as WorkerContext).api();
		expect((await api.storageStatus({})).outputs).toEqual({ count: 3, bytes: 440 });
		expect(await api.freeOutputSpace({ bytes: 320 })).toEqual({ freed: 340, removed: 2 });
		expect(await kv.keys('models:bytes:')).toEqual([]);
		expect(await kv.get('modelrun:m1')).toBeTruthy();
		expect(await kv.keys('output:')).toEqual(['output:wf:0']);
	});

	it("never removes a starred output or a starred run's bytes, and says how much they hold", async () => {
		const kv = new MemoryStore();
		await kv.set('run:old', { createdAt: 1 });
		await kv.set('run:kept', { createdAt: 2 });
		await kv.set('output:old:0', new Blob([new Uint8Array(100)]));
		await kv.set('output:old:1', new Blob([new Uint8Array(50)]));
		await kv.set('output:kept:0', new Blob([new Uint8Array(70)]));
		await kv.set('star:old', { runId: 'old', run: false, outputs: [1], at: 3 });
		await kv.set('star:kept', { runId: 'kept', run: true, outputs: [], at: 3 });
		const api = new StorageService({ kv } as unknown as WorkerContext).api();
		expect((await api.storageStatus({})).starred).toEqual({ count: 2, bytes: 120 });
		expect(await api.freeOutputSpace({ bytes: 10_000 })).toEqual({ freed: 100, removed: 1 });
		expect(await kv.keys('output:')).toEqual(['output:kept:0', 'output:old:1']);
	});

	it('lists each sweep with its cells’ cached outputs, its thumbnails and posters, and frees it as one, starred outputs kept', async () => {
		const kv = new MemoryStore();
		for (const [id, at] of [
			['a', 1],
			['b', 2],
			['other', 3]
		] as const)
			await kv.set(`run:${id}`, { createdAt: at });
		await kv.set('output:a:0', new Blob([new Uint8Array(100)]));
		await kv.set('output:a:1', new Blob([new Uint8Array(40)]));
		await kv.set('output:b:0', new Blob([new Uint8Array(70)]));
		await kv.set('output:other:0', new Blob([new Uint8Array(500)]));
		await kv.set('star:b', { runId: 'b', run: true, outputs: [], at: 3 });
		let thumbnails = { count: 2, bytes: 30 };
		let posters = { count: 1, bytes: 12 };
		const removed: string[] = [];
		const sweeps: SweepHoldings = {
			list: async () => [{ id: 's1', title: 'Seeds', cells: 3, runIds: ['a', 'b'], thumbnails, posters }],
			removeThumbnails: async (id) => {
				removed.push(id);
				const held = { count: thumbnails.count + posters.count, bytes: thumbnails.bytes + posters.bytes };
				thumbnails = { count: 0, bytes: 0 };
				posters = { count: 0, bytes: 0 };
				return held;
			}
		};
		const api = new StorageService({ kv } as unknown as WorkerContext, sweeps).api();
		expect((await api.storageStatus({})).sweeps).toEqual([
			{
				id: 's1',
				title: 'Seeds',
				cells: 3,
				outputs: { count: 3, bytes: 210 },
				starred: { count: 1, bytes: 70 },
				thumbnails: { count: 2, bytes: 30 },
				posters: { count: 1, bytes: 12 }
			}
		]);

		expect(await api.freeSweepSpace({ id: 's1', thumbnails: false })).toEqual({ freed: 140, removed: 2 });
		expect(await kv.keys('output:')).toEqual(['output:b:0', 'output:other:0']);
		expect(removed, 'the thumbnails stay unless asked').toEqual([]);
		expect((await api.freeSweepSpace({ id: 's1', thumbnails: true })).freed).toBe(42);
		const after = (await api.storageStatus({})).sweeps[0]!;
		expect([after.outputs, after.thumbnails, after.posters]).toEqual([
			{ count: 1, bytes: 70 },
			{ count: 0, bytes: 0 },
			{ count: 0, bytes: 0 }
		]);
		expect(await api.freeSweepSpace({ id: 'gone', thumbnails: true })).toEqual({ freed: 0, removed: 0 });
	});

	it('counts sweep thumbnails and posters in the thumbnails part of what holds the space', async () => {
		const kv = new MemoryStore();
		const sweeps: SweepHoldings = {
			list: async () => [
				{ id: 's1', title: 'T', cells: 2, runIds: [], thumbnails: { count: 1, bytes: 4_000 }, posters: { count: 1, bytes: 1_500 } }
			],
			removeThumbnails: async () => ({ count: 0, bytes: 0 })
		};
		vi.stubGlobal('navigator', { storage: { estimate: async () => ({ usage: 1_000_000, quota: 10_000_000 }) } });
		try {
			const status = await new StorageService({ kv } as unknown as WorkerContext, sweeps).api().storageStatus({});
			expect(status.parts?.thumbnails).toBe(5_500);
		} finally {
			vi.unstubAllGlobals();
		}
	});

	it('knows a full disk when it sees one', () => {
		expect(isQuotaError(new DOMException('full', 'QuotaExceededError'))).toBe(true);
		expect(isQuotaError(new DOMException('gone', 'NotFoundError'))).toBe(false);
		expect(isQuotaError(new Error('QuotaExceededError'))).toBe(false);
	});
});
