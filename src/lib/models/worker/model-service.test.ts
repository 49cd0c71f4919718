/** The model feature against the real router emulator, in process: keys, retries, queue, results. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_PORTS, type Emulator } from '../../../../emulator/index';
import { MemoryStore, type KeyValueStore } from '../../core/worker/kv-store';
import { QuotaWatchingStore } from '../../core/worker/quota-watching-store';
import { RunboardWorker } from '../../core/worker/runboard-worker';
import type { WorkerEvent } from '../../core/protocol/worker-api';
import { ModelService, REAL_DEPS } from './model-service';

let emulator: Emulator;

beforeAll(async () => {
	emulator = await createEmulator({ ports: Object.fromEntries(Object.keys(DEFAULT_PORTS).map((n) => [n, 0])) });
});
afterAll(async () => emulator.close());

async function control(path: string, body: unknown): Promise<void> {
	const res = await fetch(`${emulator.urls.router}/__emulator/${path}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body)
	});
	if (!res.ok) throw new Error(`${path}: ${res.status}`);
}

async function dispatchesOf(key: string): Promise<number> {
	const counters = (await (await fetch(`${emulator.urls.router}/__emulator/counters`)).json()) as { dispatches: Record<string, number> };
	return Object.entries(counters.dispatches)
		.filter(([k]) => k.endsWith(`|${key}`))
		.reduce((n, [, v]) => n + v, 0);
}

beforeEach(async () => {
	await control('reset', {});
	await control('router/settings', { providerMs: 150 });
});

function setup(kv: KeyValueStore = new MemoryStore()) {
	const config = { demo: { name: 'Demo', workflowUrl: emulator.urls.workflow, routerUrl: emulator.urls.router, apiKey: emulator.apiKey } };
	const fetchImpl = (async (url: string, init?: RequestInit) =>
		url.endsWith('/runboard.config.json') ? new Response(JSON.stringify(config)) : fetch(url, init)) as typeof fetch;
	const core = new RunboardWorker({ kv, appOrigin: 'http://127.0.0.1:9', fetchImpl });
	const events: WorkerEvent[] = [];
	core.api().subscribe((e) => events.push(e));
	const models = new ModelService(
		core.context,
		{ ...REAL_DEPS, sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 300))) },
		{ resumeWhenLeader: false }
	);
	return { kv, core, models, api: models.api(), events };
}

describe('model runs against the emulator', () => {
	it('walks the whole catalog and answers a schema revalidation with 304', async () => {
		const { api, models } = setup();
		await api.modelCatalog({ profileId: 'demo' });
		const view = await models.catalog.settled('demo');
		expect(view?.walk.kind).toBe('done');
		expect(view?.models.length).toBeGreaterThan(100);
		const first = await api.modelSchema({ profileId: 'demo', modelId: 'lumen/flux-1' });
		expect(first).toMatchObject({ ok: true, value: { source: 'fresh' } });
		const second = await api.modelSchema({ profileId: 'demo', modelId: 'lumen/flux-1' });
		expect(second).toMatchObject({ ok: true, value: { source: 'not-modified' } });
	});

	it('sends a walk as whole views at its ends and, between them, only the entries new since the last update', async () => {
		const { api, models, events } = setup();
		await api.modelCatalog({ profileId: 'demo' });
		const done = (await models.catalog.settled('demo'))!;
		const shown: string[] = [];
		for (const event of events) {
			if (event.type !== 'model-catalog-page') continue;
			expect(event.added?.from).toBe(shown.length);
			shown.push(...event.added!.models.map((m) => m.id));
		}
		expect(shown.length).toBeGreaterThan(0);
		expect(done.models.map((m) => m.id).slice(0, shown.length)).toEqual(shown);
		expect(events.at(-1)).toMatchObject({ type: 'model-catalog', view: { walk: { kind: 'done' } } });

		// A refresh keeps the list on screen until the new one is complete: its page updates carry no entries.
		events.length = 0;
		await api.modelCatalog({ profileId: 'demo', refresh: true });
		await models.catalog.settled('demo');
		const pages = events.filter((e) => e.type === 'model-catalog-page');
		expect(pages.every((e) => e.type === 'model-catalog-page' && e.added === undefined)).toBe(true);
		const views = events.flatMap((e) => (e.type === 'model-catalog' ? [e.view] : []));
		expect(views.every((v) => v.models.length === done.models.length)).toBe(true);
	});

	it('saves the key before sending, runs synchronously and keeps the result and asset bytes with their expiry', async () => {
		const { api, models, kv } = setup();
		const started = await api.startModelRun({ profileId: 'demo', modelId: 'lumen/flux-1', body: { prompt: 'a lighthouse' }, mode: 'sync' });
		if (!started.ok) throw new Error(started.error.message);
		expect((await kv.get<{ idempotencyKey: string }>(`modelrun:${started.value.id}`))?.idempotencyKey).toBe(started.value.idempotencyKey);
		const run = await models.runs.settled(started.value.id);
		expect(run).toMatchObject({ status: 'succeeded', replayed: false, attempts: 1, creditsUsed: expect.any(Number) });
		const asset = run!.result!.assets[0]!;
		expect(asset).toMatchObject({ kind: 'image', source: 'url', bytesKey: expect.any(String), expiresAt: expect.any(Number) });
		expect((await api.modelBytes({ key: asset.bytesKey! }))?.byteLength).toBeGreaterThan(100);
		expect(run!.spend?.limitCents).toBe(2000);
		expect(await dispatchesOf(run!.idempotencyKey)).toBe(1);
	});

	it('after a drop with a recoverable handle, the retry under the same key is replayed: one dispatch', async () => {
		const { api, models } = setup();
		await control('router/faults', { dropAfterDispatch: 'recoverable' });
		const started = await api.startModelRun({ profileId: 'demo', modelId: 'lumen/flux-1', body: { prompt: 'drop me' }, mode: 'sync' });
		if (!started.ok) throw new Error(started.error.message);
		const run = await models.runs.settled(started.value.id);
		expect(run).toMatchObject({ status: 'succeeded', replayed: true });
		expect(run!.attempts).toBeGreaterThan(1);
		expect(await dispatchesOf(run!.idempotencyKey)).toBe(1);
	});

	it('after a drop that consumed the key, the run is "outcome unknown" and nothing is dispatched again', async () => {
		const { api, models } = setup();
		await control('router/faults', { dropAfterDispatch: 'consumed' });
		const started = await api.startModelRun({ profileId: 'demo', modelId: 'lumen/flux-1', body: { prompt: 'consume me' }, mode: 'sync' });
		if (!started.ok) throw new Error(started.error.message);
		const run = await models.runs.settled(started.value.id);
		expect(run).toMatchObject({
			status: 'unknown',
			error: { kind: 'outcome-unknown', message: expect.stringContaining('Outcome unknown, may have been charged'), status: 409 }
		});
		expect(await dispatchesOf(run!.idempotencyKey)).toBe(1);
	});

	it("a content-policy refusal is told with the model's charge rule, looked up in the catalog", async () => {
		const { api, models } = setup();
		const started = await api.startModelRun({
			profileId: 'demo',
			modelId: 'prism/prism-image',
			body: { prompt: 'an nsfw request' },
			mode: 'sync'
		});
		if (!started.ok) throw new Error(started.error.message);
		const run = await models.runs.settled(started.value.id);
		expect(run).toMatchObject({ status: 'failed', error: { errorType: 'content_policy_violation' } });
		expect(run!.error!.message).toContain('refused this input on content-policy grounds');
		expect(run!.error!.message).toContain('may be charged (the service says "per_attempt_review")');
	});

	it('a body that is not a JSON object is refused before anything is saved or sent', async () => {
		const { api, models } = setup();
		const started = await api.startModelRun({ profileId: 'demo', modelId: 'lumen/flux-1', body: ['x'], mode: 'sync' });
		expect(started).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
		expect(await models.runs.repo.list()).toEqual([]);
	});

	it('on a full device the run whose record and key cannot be saved is not sent, and says why', async () => {
		const device = new MemoryStore();
		const set = device.set.bind(device);
		// Full for new run records; nothing saved could be removed to make room.
		device.set = async (key, value) =>
			key.startsWith('modelrun:')
				? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))
				: set(key, value);
		const kv = new QuotaWatchingStore(device, () => {});
		kv.makeRoom = async () => 0;
		const { api, models } = setup(kv);
		const counters = async () =>
			Object.values(
				((await (await fetch(`${emulator.urls.router}/__emulator/counters`)).json()) as { dispatches: Record<string, number> }).dispatches
			);
		const before = (await counters()).reduce((a, b) => a + b, 0);
		const started = await api.startModelRun({ profileId: 'demo', modelId: 'lumen/flux-1', body: { prompt: 'a lighthouse' }, mode: 'sync' });
		expect(started).toMatchObject({ ok: false, error: { kind: 'storage', message: expect.stringMatching(/full.*was not sent/) } });
		expect(await models.runs.repo.list()).toEqual([]);
		expect((await counters()).reduce((a, b) => a + b, 0)).toBe(before);
	});

	it('a 422 keeps each detail loc for its field', async () => {
		const { api, models } = setup();
		const started = await api.startModelRun({
			profileId: 'demo',
			modelId: 'lumen/flux-1',
			body: { prompt: 'x', num_inference_steps: 500 },
			mode: 'sync'
		});
		if (!started.ok) throw new Error(started.error.message);
		const run = await models.runs.settled(started.value.id);
		expect(run).toMatchObject({ status: 'failed', error: { status: 422 }, fieldErrors: [{ loc: ['body', 'num_inference_steps'] }] });
	});

	it('queues, shows the position, cancels one and collects another once', async () => {
		const { api, models } = setup();
		await control('router/settings', { queuePaused: true });
		const a = await api.startModelRun({ profileId: 'demo', modelId: 'tidal/wave-1-t2v', body: { prompt: 'first' }, mode: 'queue' });
		const b = await api.startModelRun({ profileId: 'demo', modelId: 'tidal/wave-1-t2v', body: { prompt: 'second' }, mode: 'queue' });
		if (!a.ok || !b.ok) throw new Error('start failed');
		for (let i = 0; i < 50; i++) {
			const rb = await api.modelRun({ id: b.value.id });
			if (rb?.queue?.position === 1) break;
			await new Promise((r) => setTimeout(r, 50));
		}
		expect((await api.modelRun({ id: b.value.id }))?.queue?.position).toBe(1);
		const cancelled = await api.cancelModelRun({ id: b.value.id });
		expect(cancelled).toMatchObject({ ok: true, value: { queue: { cancel: 'requested' } } });
		await control('router/settings', { queuePaused: false });
		expect(await models.runs.settled(b.value.id)).toMatchObject({ status: 'cancelled', error: { errorType: 'cancelled' } });
		const done = await models.runs.settled(a.value.id);
		expect(done).toMatchObject({ status: 'succeeded' });
		expect(done!.result!.assets[0]).toMatchObject({ bytesKey: expect.any(String) });
	});

	it('holds at most four synchronous calls open; the others say they wait for a connection, then all finish', async () => {
		const { api, models } = setup();
		await control('router/settings', { providerMs: 1200 });
		const ids: string[] = [];
		for (let i = 1; i <= 6; i++) {
			const started = await api.startModelRun({ profileId: 'demo', modelId: 'quill/quill-3', body: { prompt: `call ${i}` }, mode: 'sync' });
			if (!started.ok) throw new Error(started.error.message);
			ids.push(started.value.id);
		}
		await new Promise((r) => setTimeout(r, 200));
		const phases = await Promise.all(ids.map(async (id) => (await api.modelRun({ id }))?.phase));
		expect(phases.filter((p) => p === 'Waiting for a free connection: 4 synchronous calls are already held open.')).toHaveLength(2);
		expect(models.runs.slots.busy).toBe(4);
		const done = await Promise.all(ids.map((id) => models.runs.settled(id)));
		expect(done.map((r) => r?.status)).toEqual(Array(6).fill('succeeded'));
		expect(models.runs.slots.busy).toBe(0);
	});
});

/** Web Locks shared by the tabs of one browser: a tab that closes lets go of every lock it held. */
class TabLocks {
	private readonly held = new Map<string, string>();
	private readonly queue: Array<{ owner: string; name: string; grant: () => void }> = [];

	of(owner: string): Pick<LockManager, 'request'> {
		return {
			request: ((name: string, callback: () => Promise<unknown>) =>
				new Promise<unknown>((resolve, reject) => {
					const grant = () => {
						this.held.set(name, owner);
						callback()
							.then(resolve, reject)
							.finally(() => this.release(name, owner));
					};
					if (this.held.has(name)) this.queue.push({ owner, name, grant });
					else grant();
				})) as LockManager['request']
		};
	}

	closeTab(owner: string): void {
		for (const [name, holder] of [...this.held]) if (holder === owner) this.release(name, owner);
	}

	private release(name: string, owner: string): void {
		if (this.held.get(name) !== owner) return;
		this.held.delete(name);
		const next = this.queue.findIndex((w) => w.name === name);
		if (next >= 0) this.queue.splice(next, 1)[0]!.grant();
	}
}

describe('model runs across tabs and after a cancel', () => {
	/** A tab's worker on a shared store and channel; `frozen`: its waits longer than a second never end unless woken. */
	function tab(kv: MemoryStore, channelName: string, leader: boolean, locks: Pick<LockManager, 'request'>, frozen = true) {
		const config = {
			demo: { name: 'Demo', workflowUrl: emulator.urls.workflow, routerUrl: emulator.urls.router, apiKey: emulator.apiKey }
		};
		const fetchImpl = (async (url: string, init?: RequestInit) =>
			url.endsWith('/runboard.config.json') ? new Response(JSON.stringify(config)) : fetch(url, init)) as typeof fetch;
		const channel = new BroadcastChannel(channelName);
		const core = new RunboardWorker({
			kv,
			appOrigin: 'http://127.0.0.1:9',
			fetchImpl,
			channel,
			electLeader: (onLeader) => leader && onLeader()
		});
		const sleep = (ms: number) => new Promise<void>((r) => (frozen && ms >= 1000 ? undefined : setTimeout(r, Math.min(ms, 300))));
		const models = new ModelService(core.context, { ...REAL_DEPS, sleep, locks }, { resumeWhenLeader: false });
		return { core, models, api: models.api(), close: () => channel.close() };
	}

	it('a cancel answered 409 ALREADY_COMPLETED checks the run at once and collects it; it never reads as waiting', async () => {
		const locks = new TabLocks();
		const { core, models, api, close } = tab(new MemoryStore(), `t-${Math.random()}`, true, locks.of('a'));
		await core.api().init({});
		const started = await api.startModelRun({ profileId: 'demo', modelId: 'tidal/wave-1-t2v', body: { prompt: 'quick' }, mode: 'queue' });
		if (!started.ok) throw new Error(started.error.message);
		// The driver now waits two seconds (here: for ever, unless woken) before its next status check.
		await expect.poll(async () => (await api.modelRun({ id: started.value.id }))?.queue?.polls ?? 0).toBeGreaterThan(0);
		await new Promise((r) => setTimeout(r, 600)); // the provider finishes meanwhile
		const cancelled = await api.cancelModelRun({ id: started.value.id });
		expect(cancelled).toMatchObject({ ok: true, value: { queue: { cancel: 'already-completed' } } });
		const run = await Promise.race([models.runs.settled(started.value.id), new Promise((r) => setTimeout(() => r('still waiting'), 5000))]);
		expect(run).toMatchObject({ status: 'succeeded', result: { bytesKey: expect.any(String) } });
		close();
	});

	it('a queued run started in a tab that is not the leader, closed at once: the leader takes it over and collects it', async () => {
		const kv = new MemoryStore();
		const name = `t-${Math.random()}`;
		const locks = new TabLocks();
		const leader = tab(kv, name, true, locks.of('leader'), false);
		const other = tab(kv, name, false, locks.of('other'));
		await leader.core.api().init({});
		await other.core.api().init({});
		const started = await other.api.startModelRun({
			profileId: 'demo',
			modelId: 'tidal/wave-1-t2v',
			body: { prompt: 'left behind' },
			mode: 'queue'
		});
		if (!started.ok) throw new Error(started.error.message);
		await expect.poll(async () => (await other.api.modelRun({ id: started.value.id }))?.queue?.polls ?? 0).toBeGreaterThan(0);
		// The other tab closes: its driver stops where it is (here: in a wait that never ends) and lets go of the run's lock.
		other.close();
		locks.closeTab('other');
		const run = await Promise.race([
			leader.models.runs.settled(started.value.id).then(() => leader.api.modelRun({ id: started.value.id })),
			new Promise((r) => setTimeout(() => r('not taken over'), 8000))
		]);
		expect(run).toMatchObject({ status: 'succeeded', result: { bytesKey: expect.any(String) } });
		leader.close();
	});
});
