import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../core/worker/kv-store';
import { composeWorker } from './compose';

const demoConfig = {
	demo: { name: 'Demo (local emulator)', workflowUrl: 'http://127.0.0.1:1', routerUrl: 'http://127.0.0.1:2', apiKey: 'demo-key' }
};

function worker(kv = new MemoryStore()) {
	const fetchImpl = (async (url: string) => {
		if (url.endsWith('/runboard.config.json')) return new Response(JSON.stringify(demoConfig), { status: 200 });
		throw new TypeError('Failed to fetch');
	}) as typeof fetch;
	let n = 0;
	return { kv, api: composeWorker({ kv, appOrigin: 'http://127.0.0.1:9', fetchImpl, randomId: () => `id-${++n}` }).api };
}

describe('the assembled worker', () => {
	it('deletes a profile with its runs of both kinds and everything they kept, or keeps them', async () => {
		const { api, kv } = worker();
		await api.init({});
		await kv.set('run:1', { profileId: 'demo', promptId: 'p1' });
		await kv.set('output:1:0', 'bytes');
		await kv.set('open:1', true);
		await kv.set('prompt:p1', '1');
		await kv.set('run:2', { profileId: 'other' });
		await kv.set('modelrun:m', { profileId: 'demo' });
		await kv.set('models:bytes:m:body', 'bytes');
		expect(await api.deleteProfile({ id: 'demo', keepRuns: false })).toEqual({ removedRuns: 2 });
		expect((await kv.keys('')).filter((k) => /^(run|output|open|prompt|modelrun|models):/.test(k))).toEqual(['run:2']);
	});
});
