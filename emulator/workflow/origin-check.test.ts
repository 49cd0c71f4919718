import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Emulator } from '../index';
import { refusedByOriginCheck } from './origin-check';
import { control, startEmulator } from './test-support';

describe("ComfyUI's origin check (started without --enable-cors-header)", () => {
	it.each([
		['same host and port', { host: '127.0.0.1:8188', origin: 'http://127.0.0.1:8188' }, false],
		['another port on loopback', { host: '127.0.0.1:8188', origin: 'http://127.0.0.1:5173' }, true],
		['localhost is not 127.0.0.1', { host: '127.0.0.1:8188', origin: 'http://localhost:8188' }, true],
		['IPv6 loopback, another port', { host: '[::1]:8188', origin: 'http://[::1]:3000' }, true],
		['no Origin (curl, a no-cors GET)', { host: '127.0.0.1:8188' }, false],
		['a non-loopback host is not checked', { host: 'gpu.lan:8188', origin: 'http://app.example' }, false],
		['a cross-site fetch is refused on any host', { host: 'gpu.lan:8188', 'sec-fetch-site': 'cross-site' }, true],
		['an Origin that is not a URL', { host: '127.0.0.1:8188', origin: 'null' }, true]
	])('%s', (_name, headers, refused) => {
		expect(refusedByOriginCheck(headers)).toBe(refused);
	});
});

describe('the workflow origin without CORS headers', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ scenario: 'comfyui-local' });
	});
	afterAll(async () => emu.close());

	it('refuses another origin with a bare 403 and no CORS header, serves a request without Origin, and is reset', async () => {
		const origin = 'http://127.0.0.1:1';
		expect(
			(await fetch(`${emu.urls.workflow}/object_info`, { headers: { Origin: origin } })).headers.get('access-control-allow-origin')
		).toBe(origin);
		await control(emu, '/workflow/cors', { enableCorsHeader: false });
		const refused = await fetch(`${emu.urls.workflow}/object_info`, { headers: { Origin: origin } });
		expect(refused.status).toBe(403);
		expect(refused.headers.get('access-control-allow-origin')).toBeNull();
		const preflight = await fetch(`${emu.urls.workflow}/prompt`, {
			method: 'OPTIONS',
			headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' }
		});
		expect(preflight.status).toBe(403);
		expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
		expect((await fetch(`${emu.urls.workflow}/object_info`)).status).toBe(200);
		const upgrade = await new Promise<number>((resolve) => {
			const ws = new WebSocket(`${emu.urls.workflow.replace('http', 'ws')}/ws?clientId=me`, { headers: { Origin: origin } });
			ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
			ws.on('open', () => resolve(101));
		});
		expect(upgrade).toBe(403);

		await control(emu, '/reset');
		const afterReset = await fetch(`${emu.urls.workflow}/object_info`, { headers: { Origin: origin } });
		expect(afterReset.headers.get('access-control-allow-origin')).toBe(origin);
	});
});
