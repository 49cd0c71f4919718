import { describe, expect, it } from 'vitest';
import type { WorkerContext } from '../context';
import { MemoryStore } from '../kv-store';
import { isQuotaError } from './quota';
import { StorageService } from './storage-service';

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

	it('knows a full disk when it sees one', () => {
		expect(isQuotaError(new DOMException('full', 'QuotaExceededError'))).toBe(true);
		expect(isQuotaError(new DOMException('gone', 'NotFoundError'))).toBe(false);
		expect(isQuotaError(new Error('QuotaExceededError'))).toBe(false);
	});
});
