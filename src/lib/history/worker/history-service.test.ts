import { describe, expect, it } from 'vitest';
import type { WorkerContext } from '../../core/worker/context';
import { MemoryStore } from '../../core/worker/kv-store';
import { HistoryService } from './history-service';

function service(kv = new MemoryStore()) {
	const ctx = { kv, notifyTabs: () => {} } as unknown as WorkerContext;
	return { kv, api: new HistoryService(ctx).api() };
}

async function seed(kv: MemoryStore): Promise<void> {
	await kv.set('run:a', { schemaVersion: 1, kind: 'workflow', id: 'a', createdAt: 1 });
	await kv.set('modelrun:b', { schemaVersion: 1, kind: 'model', id: 'b', createdAt: 2 });
	await kv.set('output:a:0', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }));
	await kv.set('models:bytes:b:body', new Uint8Array([9, 8]));
	await kv.set('apikey:demo', 'secret-key');
	await kv.set('profile:demo', { id: 'demo' });
}

describe('history export and import', () => {
	it('exports runs with their bytes, never profiles or keys, and imports them on another device', async () => {
		const here = service();
		await seed(here.kv);
		const blob = await here.api.exportHistory({ withBytes: true });
		const text = await blob.text();
		expect(text).not.toContain('secret-key');
		expect(text).not.toContain('profile:');

		const there = service();
		const result = await there.api.importHistory({ file: new File([text], 'history.json') });
		expect(result).toEqual({ ok: true, runs: 2, bytes: 2, skipped: 0 });
		const output = await there.kv.get<Blob>('output:a:0');
		expect(output?.type).toBe('image/png');
		expect([...new Uint8Array(await output!.arrayBuffer())]).toEqual([1, 2, 3]);
		expect([...(await there.kv.get<Uint8Array>('models:bytes:b:body'))!]).toEqual([9, 8]);
	});

	it('can leave the bytes out, and keeps runs already present', async () => {
		const here = service();
		await seed(here.kv);
		const text = await (await here.api.exportHistory({ withBytes: false })).text();
		expect(JSON.parse(text).bytes).toEqual([]);
		const again = await here.api.importHistory({ file: new File([text], 'h.json') });
		expect(again).toEqual({ ok: true, runs: 0, bytes: 0, skipped: 2 });
	});

	it('exports only the runs chosen, with only their bytes', async () => {
		const here = service();
		await seed(here.kv);
		await here.kv.set('run:ab', { schemaVersion: 1, kind: 'workflow', id: 'ab', createdAt: 3 });
		await here.kv.set('output:ab:0', new Blob([new Uint8Array([4])]));
		const file = JSON.parse(await (await here.api.exportHistory({ withBytes: true, ids: ['a', 'b'] })).text());
		expect(file.records.map((r: { key: string }) => r.key)).toEqual(['run:a', 'modelrun:b']);
		expect(file.bytes.map((b: { key: string }) => b.key)).toEqual(['output:a:0', 'models:bytes:b:body']);
	});

	it('refuses files that are not a history export', async () => {
		const { api } = service();
		expect(await api.importHistory({ file: new File(['<html>'], 'x.json') })).toMatchObject({
			ok: false,
			message: /not a Runboard history export/
		});
		expect(await api.importHistory({ file: new File(['{"format":"runboard-history","version":9}'], 'x.json') })).toMatchObject({
			ok: false,
			message: /version 9/
		});
		const sneaky = JSON.stringify({
			format: 'runboard-history',
			version: 1,
			records: [{ key: 'apikey:demo', value: { x: 1 } }],
			bytes: []
		});
		expect(await api.importHistory({ file: new File([sneaky], 'x.json') })).toEqual({ ok: true, runs: 0, bytes: 0, skipped: 0 });
	});
});
