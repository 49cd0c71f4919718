import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createEmulator, type Emulator } from './index';

let emu: Emulator;
beforeAll(async () => {
	emu = await createEmulator({ ports: { workflow: 0, router: 0, storage: 0, cdn: 0, deployment: 0, selfHosted: 0 } });
});
afterAll(async () => emu.close());

describe('emulator skeleton', () => {
	it('refuses v1 routes without a key and serves object_info with one', async () => {
		const refused = await fetch(`${emu.urls.workflow}/api/object_info`);
		expect(refused.status).toBe(401);
		const ok = await fetch(`${emu.urls.workflow}/api/object_info`, { headers: { 'X-API-Key': emu.apiKey } });
		expect(ok.status).toBe(200);
		const nodes = (await ok.json()) as Record<string, { input: { required: Record<string, unknown> } }>;
		expect(nodes['KSampler']?.input.required['seed']).toEqual(['INT', expect.objectContaining({ min: 0 })]);
	});

	it('answers CORS preflights from another origin, and puts CORS headers on errors', async () => {
		const preflight = await fetch(`${emu.urls.workflow}/api/object_info`, {
			method: 'OPTIONS',
			headers: { Origin: 'http://app.test', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' }
		});
		expect(preflight.status).toBe(204);
		expect(preflight.headers.get('access-control-allow-origin')).toBe('http://app.test');
		expect(preflight.headers.get('access-control-allow-headers')).toBe('x-api-key');
		const refused = await fetch(`${emu.urls.workflow}/api/object_info`, { headers: { Origin: 'http://app.test' } });
		expect(refused.status).toBe(401);
		expect(refused.headers.get('access-control-allow-origin')).toBe('http://app.test');
	});

	it('serves a catalog page with a request id on the router', async () => {
		const res = await fetch(`${emu.urls.router}/v2/models`, { headers: { Authorization: `Bearer ${emu.apiKey}` } });
		expect(res.status).toBe(200);
		expect(res.headers.get('x-service-request-id')).toMatch(/^[0-9a-f-]{36}$/);
		const body = (await res.json()) as { data: unknown[]; has_more: boolean };
		expect(body.data.length).toBeGreaterThan(0);
	});

	it('greets a WebSocket with status and refuses a wrong token', async () => {
		const ws = new WebSocket(`${emu.urls.workflow.replace('http', 'ws')}/ws?clientId=c1&token=${emu.apiKey}`);
		const first = await new Promise<string>((resolve, reject) => {
			ws.once('message', (data) => resolve(String(data)));
			ws.once('error', reject);
		});
		ws.close();
		expect(JSON.parse(first)).toMatchObject({ type: 'status', data: { status: { exec_info: { queue_remaining: 0 } } } });
		const bad = new WebSocket(`${emu.urls.workflow.replace('http', 'ws')}/ws?clientId=c1&token=wrong`);
		const status = await new Promise<number | undefined>((resolve) =>
			bad.once('unexpected-response', (_req, res) => resolve(res.statusCode))
		);
		expect(status).toBe(401);
	});

	it('records and refuses credentials sent to the storage origin', async () => {
		const res = await fetch(`${emu.urls.storage}/o/x/y`, { headers: { 'X-API-Key': emu.apiKey } });
		expect(res.status).toBe(403);
		const leaks = (await (await fetch(`${emu.urls.workflow}/__emulator/leaks`)).json()) as { leaks: Array<{ carried: string[] }> };
		expect(leaks.leaks[0]?.carried).toContain('x-api-key');
	});
});

describe('stopping', () => {
	it('close() ends connections with requests still in flight at once, as a stopped service does', async () => {
		const held = await createEmulator({ ports: { workflow: 0, router: 0, storage: 0, cdn: 0, deployment: 0, selfHosted: 0 } });
		await fetch(`${held.urls.router}/__emulator/router/settings`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ networkMs: 60_000 })
		});
		const inFlight = fetch(`${held.urls.router}/v2/models`, { headers: { 'X-API-Key': held.apiKey } }).then(
			() => 'answered',
			() => 'cut off'
		);
		await new Promise((resolve) => setTimeout(resolve, 200));
		const outcome = await Promise.race([
			held.close().then(() => 'closed'),
			new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000))
		]);
		expect(outcome).toBe('closed');
		expect(await inFlight).toBe('cut off');
	});
});
