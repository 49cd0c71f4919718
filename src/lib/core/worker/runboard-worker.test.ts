import { describe, expect, it } from 'vitest';
import { MemoryStore } from './kv-store';
import { RunboardWorker } from './runboard-worker';

const demoConfig = {
	demo: { name: 'Demo (local emulator)', workflowUrl: 'http://127.0.0.1:1', routerUrl: 'http://127.0.0.1:2', apiKey: 'demo-key' }
};

function worker(config: unknown = demoConfig, kv = new MemoryStore()) {
	const fetchImpl = (async (url: string) => {
		if (url.endsWith('/runboard.config.json')) {
			return config === null ? new Response('not found', { status: 404 }) : new Response(JSON.stringify(config), { status: 200 });
		}
		throw new TypeError('Failed to fetch');
	}) as typeof fetch;
	let n = 0;
	return { kv, api: new RunboardWorker({ kv, appOrigin: 'http://127.0.0.1:9', fetchImpl, randomId: () => `id-${++n}` }) };
}

describe('the worker core', () => {
	it('creates the demo profile from the runtime config, makes it active, and never returns its key', async () => {
		const { api } = worker();
		const state = await api.init({});
		expect(state.profiles).toEqual([expect.objectContaining({ id: 'demo', name: 'Demo (local emulator)', hasKey: true })]);
		expect(state.activeProfileId).toBe('demo');
		expect(state.demo).toEqual({ name: 'Demo (local emulator)', workflowUrl: 'http://127.0.0.1:1', routerUrl: 'http://127.0.0.1:2' });
		expect(JSON.stringify(state)).not.toContain('demo-key');
	});

	it('follows the emulator when its ports change, and respects a deleted demo profile', async () => {
		const kv = new MemoryStore();
		await worker(demoConfig, kv).api.init({});
		const moved = { demo: { ...demoConfig.demo, workflowUrl: 'http://127.0.0.1:5' } };
		const second = worker(moved, kv).api;
		expect((await second.init({})).profiles[0]?.workflowUrl).toBe('http://127.0.0.1:5');
		await second.deleteProfile({ id: 'demo', keepRuns: true });
		expect((await worker(moved, kv).api.init({})).profiles).toEqual([]);
	});

	it('seeds the v2 demo beside the v1 one: a Cloud profile with the demo key, after the v1 demo, which stays active', async () => {
		const demoV2 = { ...demoConfig.demo, name: 'Demo on v2 (managed)' };
		const state = await worker({ ...demoConfig, demoV2 }).api.init({});
		expect(state.profiles.map((p) => [p.id, p.name, p.preset, p.workflowUrl, p.hasKey])).toEqual([
			['demo', 'Demo (local emulator)', 'demo', 'http://127.0.0.1:1', true],
			['demo-v2', 'Demo on v2 (managed)', 'cloud', 'http://127.0.0.1:1', true]
		]);
		expect(state.activeProfileId).toBe('demo');
		expect(JSON.stringify(state)).not.toContain('demo-key');
	});

	it('follows the emulator to its new ports for the v2 demo too, and remembers each demo deleted on its own', async () => {
		const kv = new MemoryStore();
		const demoV2 = { ...demoConfig.demo, name: 'Demo on v2 (managed)' };
		await worker({ ...demoConfig, demoV2 }, kv).api.init({});
		const moved = {
			demo: { ...demoConfig.demo, workflowUrl: 'http://127.0.0.1:5' },
			demoV2: { ...demoV2, workflowUrl: 'http://127.0.0.1:5', routerUrl: 'http://127.0.0.1:6', apiKey: 'new-key' }
		};
		const second = worker(moved, kv).api;
		const profiles = (await second.init({})).profiles;
		expect(profiles.find((p) => p.id === 'demo-v2')).toMatchObject({ workflowUrl: 'http://127.0.0.1:5', routerUrl: 'http://127.0.0.1:6' });
		expect(await kv.get('apikey:demo-v2')).toBe('new-key');
		await second.deleteProfile({ id: 'demo-v2', keepRuns: true });
		expect((await worker(moved, kv).api.init({})).profiles.map((p) => p.id)).toEqual(['demo']);
		await worker(moved, kv).api.deleteProfile({ id: 'demo', keepRuns: true });
		expect((await worker(moved, kv).api.init({})).profiles).toEqual([]);
	});

	it('with only the v2 demo in the config, makes it the active profile', async () => {
		const state = await worker({ demoV2: demoConfig.demo }).api.init({});
		expect(state.profiles.map((p) => p.id)).toEqual(['demo-v2']);
		expect(state.activeProfileId).toBe('demo-v2');
		expect(state.demo, 'the form’s demo preset is the v1 demo only').toBeNull();
	});

	it('reads profiles stored before v2 (no comfyUrl) as they are, and saves them again unchanged but for the edit', async () => {
		const kv = new MemoryStore();
		const old = {
			id: 'old',
			name: 'Studio',
			preset: 'cloud',
			workflowUrl: 'https://a.test',
			routerUrl: 'https://r.test',
			createdAt: 1,
			updatedAt: 1
		};
		const local = {
			...old,
			id: 'local',
			name: 'Desk',
			preset: 'local-comfyui',
			workflowUrl: 'http://127.0.0.1:8188',
			routerUrl: null,
			createdAt: 2
		};
		await kv.set('profile:old', old);
		await kv.set('apikey:old', 'k-old');
		await kv.set('profile:local', local);
		await kv.set('setting:activeProfile', 'old');
		const { api } = worker(null, kv);
		const state = await api.init({});
		expect(state.profiles).toEqual([
			{ ...old, hasKey: true, hasPartnerKey: false },
			{ ...local, hasKey: false, hasPartnerKey: false }
		]);
		expect(state.activeProfileId).toBe('old');
		const saved = await api.saveProfile({
			profile: { id: 'old', name: 'Studio 2', preset: 'cloud', workflowUrl: old.workflowUrl, routerUrl: old.routerUrl }
		});
		expect(saved).toMatchObject({ ok: true, value: { id: 'old', name: 'Studio 2', preset: 'cloud', hasKey: true } });
		expect(await kv.get('profile:old')).not.toHaveProperty('comfyUrl');
		expect(await kv.get('apikey:old')).toBe('k-old');
	});

	it('keeps a self-hosted proxy Comfy account key apart from its token, never shows it, and forgets either alone', async () => {
		const { api, kv } = worker(null);
		await api.init({});
		const input = {
			name: 'Proxy',
			preset: 'self-hosted-proxy' as const,
			workflowUrl: 'http://127.0.0.1:8189',
			routerUrl: '',
			comfyUrl: 'http://127.0.0.1:8188'
		};
		const saved = await api.saveProfile({ profile: { ...input, apiKey: 'proxy-token', partnerKey: ' comfy-account ' } });
		expect(saved).toMatchObject({ ok: true, value: { hasKey: true, hasPartnerKey: true } });
		expect(JSON.stringify(saved)).not.toContain('comfy-account');
		const id = saved.ok ? saved.value.id : '';
		expect(await kv.get(`partnerkey:${id}`)).toBe('comfy-account');
		expect(await kv.get(`profile:${id}`)).not.toHaveProperty('partnerKey');
		const state = await api.init({});
		expect(JSON.stringify(state)).not.toMatch(/comfy-account|proxy-token/);
		// Saving again with the field empty keeps it; forgetting the partner key leaves the token.
		await api.saveProfile({ profile: { ...input, id, partnerKey: '' } });
		expect(await kv.get(`partnerkey:${id}`)).toBe('comfy-account');
		await api.forgetKey({ id, which: 'partner' });
		expect(await kv.get(`partnerkey:${id}`)).toBeUndefined();
		expect(await kv.get(`apikey:${id}`)).toBe('proxy-token');
		// Another kind keeps no partner key, even if one is typed.
		const cloud = await api.saveProfile({
			profile: { name: 'Cloud', preset: 'cloud', workflowUrl: 'https://a.test', routerUrl: '', apiKey: 'k', partnerKey: 'ignored' }
		});
		expect(cloud).toMatchObject({ ok: true, value: { hasPartnerKey: false } });
		expect(await kv.keys('partnerkey:')).toEqual([]);
	});

	it('drops the partner key when a proxy profile becomes another kind, and with the profile', async () => {
		const { api, kv } = worker(null);
		await api.init({});
		const input = {
			name: 'Proxy',
			preset: 'self-hosted-proxy' as const,
			workflowUrl: 'http://127.0.0.1:8189',
			routerUrl: '',
			comfyUrl: 'http://127.0.0.1:8188'
		};
		const first = await api.saveProfile({ profile: { ...input, partnerKey: 'comfy-account' } });
		const id = first.ok ? first.value.id : '';
		await api.saveProfile({ profile: { ...input, id, preset: 'deployment', workflowUrl: 'https://d.test' } });
		expect(await kv.get(`partnerkey:${id}`)).toBeUndefined();
		const second = await api.saveProfile({ profile: { ...input, partnerKey: 'comfy-account' } });
		const other = second.ok ? second.value.id : '';
		await api.deleteProfile({ id: other, keepRuns: true });
		expect(await kv.keys('partnerkey:')).toEqual([]);
	});

	it('hands the page the undo window of the config’s timings in its init answer, and the product’s without them', async () => {
		expect((await worker({ ...demoConfig, timings: { undoMs: 1500, undoGraceMs: 400 } }).api.init({})).undo).toEqual({
			ms: 1500,
			graceMs: 400
		});
		expect((await worker().api.init({})).undo).toEqual({ ms: 5000, graceMs: 3000 });
		expect((await worker(null).api.init({})).undo).toEqual({ ms: 5000, graceMs: 3000 });
		const broken = await worker({ ...demoConfig, timings: { undoMs: 'soon' } }).api.init({});
		expect(broken.configProblem).toMatch(/timings\.undoMs/);
		expect(broken.undo).toEqual({ ms: 5000, graceMs: 3000 });
	});

	it('has no demo on a hosted build and says when the config is broken', async () => {
		expect((await worker(null).api.init({})).demo).toBeNull();
		expect((await worker('<html>').api.init({})).configProblem).toMatch(/not a JSON object/);
	});

	it('saves profiles with field errors, keeps a key unless a new one is typed, and forgets it on request', async () => {
		const { api, kv } = worker(null);
		await api.init({});
		const bad = await api.saveProfile({ profile: { name: '', preset: 'cloud', workflowUrl: 'x', routerUrl: '' } });
		expect(bad).toMatchObject({ ok: false, error: { name: expect.any(String), workflowUrl: expect.any(String) } });
		const saved = await api.saveProfile({
			profile: { name: 'Cloud', preset: 'cloud', workflowUrl: 'https://a.test', routerUrl: '', apiKey: 'k1' }
		});
		expect(saved).toMatchObject({ ok: true, value: { hasKey: true, routerUrl: null } });
		const id = saved.ok ? saved.value.id : '';
		await api.saveProfile({ profile: { id, name: 'Cloud 2', preset: 'cloud', workflowUrl: 'https://a.test', routerUrl: '', apiKey: '' } });
		expect(await kv.get(`apikey:${id}`)).toBe('k1');
		await api.forgetKey({ id });
		expect(await kv.get(`apikey:${id}`)).toBeUndefined();
	});

	it('deletes a profile by asking each registered hook for its runs, unless they are kept', async () => {
		const { api } = worker();
		const asked: string[] = [];
		api.onProfileDeleted(async (id) => (asked.push(`runs of ${id}`), ['r1']));
		api.onProfileDeleted(async (id) => (asked.push(`model runs of ${id}`), ['m1']));
		const deleted: unknown[] = [];
		api.subscribe((event) => event.type === 'run-deleted' && deleted.push(event.id));
		await api.init({});
		await api.saveProfile({ profile: { name: 'Extra', preset: 'cloud', workflowUrl: 'https://a.test', routerUrl: '', apiKey: 'x' } });
		expect(await api.deleteProfile({ id: 'demo', keepRuns: true })).toEqual({ removedRuns: 0 });
		expect(asked).toEqual([]);
		expect(await api.deleteProfile({ id: 'id-2', keepRuns: false })).toEqual({ removedRuns: 2 });
		expect(asked).toEqual(['runs of id-2', 'model runs of id-2']);
		expect(deleted).toEqual(['r1', 'm1']);
	});

	it('clears all local data and starts over from the config', async () => {
		const { api, kv } = worker();
		await api.init({});
		await api.saveProfile({ profile: { name: 'Extra', preset: 'cloud', workflowUrl: 'https://a.test', routerUrl: '', apiKey: 'x' } });
		await api.clearAllData({});
		expect((await api.init({})).profiles.map((p) => p.id)).toEqual(['demo']);
		expect(await kv.keys('apikey:')).toEqual(['apikey:demo']);
	});
});
