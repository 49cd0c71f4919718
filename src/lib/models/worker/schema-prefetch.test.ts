/** The background schema prefetch against the real router emulator, in process. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_PORTS, type Emulator } from '../../../../emulator/index';
import { MemoryStore } from '../../core/worker/kv-store';
import { RunboardWorker } from '../../core/worker/runboard-worker';
import type { WorkerEvent } from '../../core/protocol/worker-api';
import { ModelService, REAL_DEPS } from './model-service';
import { PREFETCH_CONCURRENCY } from './schema-prefetch';

let emulator: Emulator;

beforeAll(async () => {
	emulator = await createEmulator({ ports: Object.fromEntries(Object.keys(DEFAULT_PORTS).map((n) => [n, 0])) });
});
afterAll(async () => emulator.close());
beforeEach(async () => {
	await fetch(`${emulator.urls.router}/__emulator/reset`, { method: 'POST' });
});

interface SchemaCall {
	status: number;
	revalidated: boolean;
	inFlight: number;
	duringWalk: boolean;
}

function setup(kv = new MemoryStore()) {
	const config = { demo: { name: 'Demo', workflowUrl: emulator.urls.workflow, routerUrl: emulator.urls.router, apiKey: emulator.apiKey } };
	const calls: SchemaCall[] = [];
	let inFlight = 0;
	let models: ModelService | undefined;
	const fetchImpl = (async (url: string, init?: RequestInit) => {
		if (url.endsWith('/runboard.config.json')) return new Response(JSON.stringify(config));
		if (!url.endsWith('/openapi.json')) return fetch(url, init);
		inFlight++;
		const duringWalk = models?.catalog.isWalking('demo') ?? false;
		const at = inFlight;
		try {
			const res = await fetch(url, init);
			const revalidated = new Headers(init?.headers).has('If-None-Match');
			calls.push({ status: res.status, revalidated, inFlight: at, duringWalk });
			return res;
		} finally {
			inFlight--;
		}
	}) as typeof fetch;
	const core = new RunboardWorker({ kv, appOrigin: 'http://127.0.0.1:9', fetchImpl });
	const events: WorkerEvent[] = [];
	core.api().subscribe((e) => events.push(e));
	models = new ModelService(core.context, REAL_DEPS, { resumeWhenLeader: false });
	return { kv, models, api: models.api(), events, calls };
}

async function walkAndPrefetch(s: ReturnType<typeof setup>, refresh = false): Promise<void> {
	await s.api.modelCatalog({ profileId: 'demo', refresh });
	await s.models.catalog.settled('demo');
	await s.models.prefetch.settled('demo');
}

describe('schema prefetch after a walk', () => {
	it('summarises every model two at a time, sends batches, and revalidates with ETags on the next walk (all 304)', async () => {
		const s = setup();
		const summariesAtOpen = await s.api.modelSummaries({ profileId: 'demo' });
		expect(summariesAtOpen.summaries).toEqual([]);
		await walkAndPrefetch(s);
		const ids = s.models.catalog.modelIds('demo');
		const { summaries, progress } = await s.api.modelSummaries({ profileId: 'demo' });
		// The enterprise models answer 403 (not entitled): skipped, the rest summarised.
		expect(summaries.length).toBe(ids.filter((id) => !id.startsWith('atelier-enterprise/')).length);
		expect(progress).toMatchObject({ done: ids.length, total: ids.length });
		expect(summaries.find((x) => x.modelId === 'sonora/voice-hd')).toMatchObject({ kind: 'audio', needs: ['text'] });
		expect(Math.max(...s.calls.map((c) => c.inFlight))).toBeLessThanOrEqual(PREFETCH_CONCURRENCY);
		const batches = s.events.filter((e) => e.type === 'model-summaries');
		expect(batches.length).toBeGreaterThan(0);
		expect(batches.reduce((n, e) => n + (e.type === 'model-summaries' ? e.summaries.length : 0), 0)).toBe(summaries.length);

		s.calls.length = 0;
		s.events.length = 0;
		await walkAndPrefetch(s, true);
		const ok = s.calls.filter((c) => c.status !== 403);
		expect(ok.length).toBe(summaries.length);
		expect(ok.every((c) => c.revalidated && c.status === 304)).toBe(true);
		// Nothing changed, so no summary is sent again.
		expect(s.events.filter((e) => e.type === 'model-summaries').flatMap((e) => (e.type === 'model-summaries' ? e.summaries : []))).toEqual(
			[]
		);
	});

	it('waits while a walk runs: at most the requests already on their way overlap it', async () => {
		const s = setup();
		await walkAndPrefetch(s);
		await fetch(`${emulator.urls.router}/__emulator/router/catalog/rebuild`, { method: 'POST' });
		s.calls.length = 0;
		// Refresh at once after a walk: the revalidation starts, then waits for the new walk.
		await s.api.modelCatalog({ profileId: 'demo', refresh: true });
		await s.models.catalog.settled('demo');
		await s.api.modelCatalog({ profileId: 'demo', refresh: true });
		await s.models.catalog.settled('demo');
		await s.models.prefetch.settled('demo');
		expect(s.calls.filter((c) => c.duringWalk).length).toBeLessThanOrEqual(PREFETCH_CONCURRENCY);
	});

	it('shows saved summaries on the next start at once, and fills in only missing ones without a walk', async () => {
		const kv = new MemoryStore();
		const first = setup(kv);
		await walkAndPrefetch(first);
		const second = setup(kv);
		const saved = await second.api.modelSummaries({ profileId: 'demo' });
		expect(saved.summaries.length).toBeGreaterThan(100);
		await second.api.modelCatalog({ profileId: 'demo' });
		await second.api.modelSummaries({ profileId: 'demo' });
		await second.models.prefetch.settled('demo');
		// The saved list is fresh (no walk), every summary is known: only the not-entitled models are asked again.
		expect(second.calls.every((c) => c.status === 403)).toBe(true);
		const asked = second.calls.length;
		await second.api.modelSummaries({ profileId: 'demo' });
		await second.models.prefetch.settled('demo');
		expect(second.calls.length).toBe(asked);
	});
});
