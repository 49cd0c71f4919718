import { describe, expect, it } from 'vitest';
import type { RouterModelDetail, RouterModelListResponse } from '../../src/lib/models/protocol/router-api';
import { useRouterEmulator } from './test-helpers';
import { buildCatalog } from './catalog';

const api = useRouterEmulator();

async function page(query = ''): Promise<{ res: Response; body: RouterModelListResponse }> {
	const res = await api.get(`/v2/models${query}`);
	return { res, body: (await res.json()) as RouterModelListResponse };
}

async function walk(limit?: number): Promise<{ ids: string[]; pages: RouterModelListResponse[] }> {
	const ids: string[] = [];
	const pages: RouterModelListResponse[] = [];
	let cursor: string | undefined;
	for (let i = 0; i < 100; i++) {
		const params = new URLSearchParams();
		if (cursor) params.set('cursor', cursor);
		if (limit !== undefined) params.set('limit', String(limit));
		const { res, body } = await page(`?${params}`);
		expect(res.status).toBe(200);
		pages.push(body);
		ids.push(...body.data.map((m) => m.id));
		if (!body.has_more) {
			expect(body.next_cursor).toBeUndefined();
			return { ids, pages };
		}
		cursor = body.next_cursor;
		expect(cursor).toBeTruthy();
	}
	throw new Error('walk did not end');
}

describe('catalog', () => {
	it('lists at least 120 models over at least 8 providers, each id a slug pair within the limits', async () => {
		const { ids, pages } = await walk();
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.length).toBeGreaterThanOrEqual(120);
		const entries = pages.flatMap((p) => p.data);
		expect(new Set(entries.map((e) => e.provider)).size).toBeGreaterThanOrEqual(8);
		for (const e of entries) {
			expect(e.id).toBe(`${e.provider}/${e.model}`);
			expect(e.provider).toMatch(/^[a-z0-9-]{1,64}$/);
			expect(e.model).toMatch(/^[a-z0-9-]{1,128}$/);
			expect(e.id.length).toBeLessThanOrEqual(193);
			expect(Object.keys(e).sort()).toEqual(['billing', 'id', 'model', 'provider']);
			expect(Object.keys(e.billing)).toEqual(['charges_on_policy_rejection']);
		}
		expect(Math.max(...entries.map((e) => e.id.length))).toBe(193);
		const charges = new Set(entries.map((e) => e.billing.charges_on_policy_rejection));
		expect(charges).toContain('no');
		expect(charges).toContain('yes');
		expect([...charges].some((c) => c !== 'no' && c !== 'yes')).toBe(true);
	});

	it('pages with default 20, clamps to 100, treats zero and negative as the default', async () => {
		expect((await page()).body.limit).toBe(20);
		expect((await page()).body.data).toHaveLength(20);
		expect((await page('?limit=1000')).body.limit).toBe(100);
		expect((await page('?limit=0')).body.limit).toBe(20);
		expect((await page('?limit=-5')).body.limit).toBe(20);
		expect((await page('?limit=7')).body.data).toHaveLength(7);
		// ETag and 304 belong to schema documents only.
		expect((await page()).res.headers.get('etag')).toBeNull();
		expect((await api.get('/v2/models/lumen/flux-1')).headers.get('etag')).toBeNull();
		const bad = await api.get('/v2/models?limit=abc');
		expect(bad.status).toBe(400);
		expect(bad.headers.get('x-service-error-type')).toBe('invalid_input');
	});

	it('serves short and empty pages while has_more is true, and a walk still sees every model', async () => {
		const { ids, pages } = await walk();
		const notLast = pages.slice(0, -1);
		expect(notLast.some((p) => p.data.length === 0 && p.has_more)).toBe(true);
		expect(notLast.some((p) => p.data.length > 0 && p.data.length < p.limit && p.has_more)).toBe(true);
		expect(ids.length).toBe(buildCatalog(null, true).length);
		const big = await walk(100);
		expect(big.ids.sort()).toEqual([...ids].sort());
	});

	it('refuses tampered, foreign and oversized cursors with 400 invalid_input, never restarting', async () => {
		const first = (await page()).body;
		const cursor = first.next_cursor!;
		const tampered = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA');
		for (const c of [tampered, 'abc', '0', 'x'.repeat(513), `${cursor}.x`]) {
			const res = await api.get(`/v2/models?cursor=${encodeURIComponent(c)}`);
			expect(res.status).toBe(400);
			expect(res.headers.get('x-service-error-type')).toBe('invalid_input');
			expect(((await res.json()) as { error_type: string }).error_type).toBe('invalid_input');
		}
		const empty = await api.get('/v2/models?cursor=');
		expect(empty.status).toBe(400);
	});

	it('invalidates old cursors when the catalog is rebuilt', async () => {
		const cursor = (await page()).body.next_cursor!;
		expect((await api.get(`/v2/models?cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
		await api.control('/router/catalog/rebuild');
		const res = await api.get(`/v2/models?cursor=${encodeURIComponent(cursor)}`);
		expect(res.status).toBe(400);
		expect(res.headers.get('x-service-error-type')).toBe('invalid_input');
	});

	it('rebuilds at a catalog size (1,000 for benchmarks): unique ids, each with its schema; reset restores its own', async () => {
		const own = buildCatalog(null, true).length;
		expect(await api.control('/router/catalog/rebuild', { size: 1000 })).toMatchObject({ models: 1000 });
		const { ids } = await walk(100);
		expect(ids).toHaveLength(1000);
		expect(new Set(ids).size).toBe(1000);
		expect((await api.get(`/v2/models/${ids[999]}/openapi.json`)).status).toBe(200);
		expect(await api.control('/router/catalog/rebuild', { size: 10 })).toMatchObject({ models: 10 });
		await api.control('/reset');
		expect((await walk(100)).ids).toHaveLength(own);
		const refused = await fetch(`${api.base}/__emulator/router/catalog/rebuild`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: '{"size":0}'
		});
		expect(refused.status).toBe(400);
	});

	it('answers 503 service_unavailable when the catalog fault is on', async () => {
		await fetch(`${api.base}/__emulator/faults`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: '{"catalogUnavailable":true}'
		});
		for (const path of ['/v2/models', '/v2/models/lumen/flux-1', '/v2/models/lumen/flux-1/openapi.json']) {
			const res = await api.get(path);
			expect(res.status).toBe(503);
			expect(res.headers.get('x-service-error-type')).toBe('service_unavailable');
		}
	});

	it('describes a model with input_schema_url; 404 model_not_found for unknown or malformed ids; 403 forbidden when not entitled', async () => {
		const res = await api.get('/v2/models/lumen/flux-1');
		expect(res.status).toBe(200);
		const detail = (await res.json()) as RouterModelDetail;
		expect(detail).toMatchObject({
			id: 'lumen/flux-1',
			provider: 'lumen',
			model: 'flux-1',
			billing: { charges_on_policy_rejection: 'no' }
		});
		expect(detail.input_schema_url).toBe(`${api.base}/v2/models/lumen/flux-1/openapi.json`);
		for (const path of [
			'/v2/models/nobody/flux-1',
			'/v2/models/lumen/nothing',
			'/v2/models/Lumen/flux-1',
			`/v2/models/lumen/${'a'.repeat(129)}`
		]) {
			const r = await api.get(path);
			expect(r.status).toBe(404);
			expect(r.headers.get('x-service-error-type')).toBe('model_not_found');
		}
		const longest = buildCatalog(null, true).find((m) => m.id.length === 193)!;
		expect((await api.get(`/v2/models/${longest.id}`)).status).toBe(200);
		expect((await api.get(`/v2/models/${longest.id}/openapi.json`)).status).toBe(200);
		const forbidden = await api.get('/v2/models/atelier-enterprise/studio-image');
		expect(forbidden.status).toBe(403);
		expect(((await forbidden.json()) as { error_type: string }).error_type).toBe('forbidden');
	});

	it('never reveals a price: no catalog or schema answer names one', async () => {
		const bodies = [JSON.stringify((await walk(100)).pages), await (await api.get('/v2/models/lumen/flux-1')).text()];
		for (const id of ['lumen/flux-1', 'kestrel/kestrel-v1-text-to-video', 'quill/quill-3'])
			bodies.push(await (await api.get(`/v2/models/${id}/openapi.json`)).text());
		for (const text of bodies) expect(text).not.toMatch(/price|cost|cents|usd|credits/i);
	});
});

describe('authentication', () => {
	it('answers 401 unauthorized without a usable credential, accepts Bearer, and prefers X-API-Key', async () => {
		const none = await fetch(`${api.base}/v2/models`);
		expect(none.status).toBe(401);
		expect(none.headers.get('x-service-error-type')).toBe('unauthorized');
		expect(none.headers.get('x-service-request-id')).toMatch(/^[0-9a-f-]{36}$/);
		const wrong = await fetch(`${api.base}/v2/models`, { headers: { 'X-API-Key': 'nope' } });
		expect(wrong.status).toBe(401);
		const bearer = await fetch(`${api.base}/v2/models`, { headers: { Authorization: `Bearer ${api.emu.apiKey}` } });
		expect(bearer.status).toBe(200);
		// X-API-Key wins: a wrong key beside a right Bearer is refused, a right key beside a wrong Bearer passes.
		expect(
			(await fetch(`${api.base}/v2/models`, { headers: { 'X-API-Key': 'nope', Authorization: `Bearer ${api.emu.apiKey}` } })).status
		).toBe(401);
		expect((await fetch(`${api.base}/v2/models`, { headers: { 'X-API-Key': api.emu.apiKey, Authorization: 'Bearer nope' } })).status).toBe(
			200
		);
	});

	it('accepts a JWT the emulator issues, and refuses it once expired', async () => {
		const { token } = (await api.control('/router/token', { lifetimeSeconds: 60 })) as { token: string };
		expect(token.split('.')).toHaveLength(3);
		expect((await fetch(`${api.base}/v2/models`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
		await api.control('/clock/advance', { ms: 61_000 });
		expect((await fetch(`${api.base}/v2/models`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401);
	});

	it('refuses every route without a credential (401) and when not enabled (403), with request id and a mirrored error type', async () => {
		const id = '00000000-0000-4000-8000-000000000000';
		const routes: Array<[string, string]> = [
			['GET', '/v2/models'],
			['GET', '/v2/models/lumen/flux-1'],
			['GET', '/v2/models/lumen/flux-1/openapi.json'],
			['POST', '/v2/models/lumen/flux-1'],
			['POST', '/v2/models/lumen/flux-1/requests'],
			['GET', `/v2/models/lumen/flux-1/requests/${id}`],
			['GET', `/v2/models/lumen/flux-1/requests/${id}/status`],
			['PUT', `/v2/models/lumen/flux-1/requests/${id}/cancel`]
		];
		const call = (method: string, path: string, headers: Record<string, string>): Promise<Response> =>
			fetch(`${api.base}${path}`, {
				method,
				headers: { ...headers, ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}) },
				body: method === 'POST' ? '{"prompt":"x"}' : undefined
			});
		for (const [scenario, headers, status, type] of [
			['default', {}, 401, 'unauthorized'],
			['router-not-enabled', { 'X-API-Key': api.emu.apiKey }, 403, 'not_enabled']
		] as const) {
			await api.control('/scenario', { name: scenario });
			for (const [method, path] of routes) {
				const res = await call(method, path, headers);
				expect([method, path, res.status]).toEqual([method, path, status]);
				expect(res.headers.get('x-service-request-id')).toMatch(/^[0-9a-f-]{36}$/);
				expect(res.headers.get('x-service-error-type')).toBe(type);
				expect(((await res.json()) as { error_type: string }).error_type).toBe(type);
			}
		}
		expect((await api.counters()).dispatches).toEqual({});
	});

	it('answers 403 not_enabled in the router-not-enabled scenario', async () => {
		await api.control('/scenario', { name: 'router-not-enabled' });
		const res = await api.get('/v2/models');
		expect(res.status).toBe(403);
		expect(await res.json()).toMatchObject({ error_type: 'not_enabled' });
		expect(res.headers.get('x-service-error-type')).toBe('not_enabled');
	});
});

describe('a simulated network round trip', () => {
	it('holds every request, preflights included, for networkMs before answering', async () => {
		await api.control('/router/settings', { networkMs: 120 });
		const started = performance.now();
		const preflight = await fetch(`${api.emu.urls.router}/v2/models`, {
			method: 'OPTIONS',
			headers: { Origin: 'http://app.test', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' }
		});
		const afterPreflight = performance.now();
		const { res } = await page('?limit=5');
		expect([preflight.status < 300, res.status]).toEqual([true, 200]);
		expect(afterPreflight - started).toBeGreaterThanOrEqual(115);
		expect(performance.now() - afterPreflight).toBeGreaterThanOrEqual(115);
	});
});
