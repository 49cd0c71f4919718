import { describe, expect, it, vi } from 'vitest';
import partnerNodes from '../../src/lib/workflows/rules/examples/partner-nodes.json';
import WebSocket from 'ws';
import textToImage from '../../src/lib/workflows/rules/examples/text-to-image.json';
import type { ApiPrompt } from '../../src/lib/workflows/protocol/workflow-api';
import { RecordingSocket, api, control, variant } from './test-support';
import { useWorkflowEmulator } from './use-workflow-emulator';

const small = (changes: Record<string, Record<string, unknown>> = {}) =>
	variant(textToImage as ApiPrompt, { '5': { width: 64, height: 64 }, ...changes });

const bed = useWorkflowEmulator();

const upgradeStatus = (url: string) =>
	new Promise<number | 'open'>((resolve) => {
		const ws = new WebSocket(url);
		ws.once('open', () => {
			ws.close();
			resolve('open');
		});
		ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
		ws.once('error', () => undefined);
	});

describe('WebSocket edges', () => {
	it('refuses a missing token with 401, and accepts /api/ws too', async () => {
		const base = bed.emu.urls.workflow.replace('http', 'ws');
		expect(await upgradeStatus(`${base}/ws?clientId=x`)).toBe(401);
		expect(await upgradeStatus(`${base}/api/ws?clientId=x&token=${bed.emu.apiKey}`)).toBe('open');
		expect(await upgradeStatus(`${base}/elsewhere?token=${bed.emu.apiKey}`)).toBe(404);
	});

	it('ignores malformed client messages and keeps the socket', async () => {
		const socket = await RecordingSocket.open(bed.emu);
		socket.ws.send('{not json');
		socket.ws.send(JSON.stringify({ type: 'feature_flags', data: 'odd' }));
		socket.ws.send(new Uint8Array([1, 2, 3]));
		const id = (await api(bed.emu).submit(small({ '3': { steps: 1 } }))).body['prompt_id'] as string;
		await socket.untilDone(id);
		expect(socket.closed).toBe(false);
		socket.close();
	});
});

describe('faults on demand', () => {
	it('drops every socket now; the job keeps running and polling still sees it finish', async () => {
		await control(bed.emu, '/workflow/timing', { stepMs: 10 });
		const socket = await RecordingSocket.open(bed.emu);
		const id = (await api(bed.emu).submit(small({ '3': { steps: 30 } }))).body['prompt_id'] as string;
		await socket.until(() => socket.json('progress').length > 0);
		expect(await control(bed.emu, '/sockets/drop')).toEqual({ dropped: 1 });
		await socket.until(() => socket.closed);
		const again = await RecordingSocket.open(bed.emu);
		await again.untilDone(id);
		expect(((await (await api(bed.emu).get(`/api/job/${id}/status`)).json()) as { status: string }).status).toBe('completed');
		again.close();
	});

	it('tells a socket that connects mid-run which node the job is at', async () => {
		await control(bed.emu, '/workflow/timing', { stepMs: 10 });
		const first = await RecordingSocket.open(bed.emu);
		const id = (await api(bed.emu).submit(small({ '3': { steps: 40 } }))).body['prompt_id'] as string;
		await first.until(() => first.json('progress', id).length > 0);
		const late = await RecordingSocket.open(bed.emu);
		expect(late.json().slice(0, 2)).toEqual([
			{ type: 'status', data: { status: { exec_info: { queue_remaining: 1 } }, sid: 'test-client' } },
			{ type: 'executing', data: { node: '3', display_node: '3', prompt_id: id } }
		]);
		await late.untilDone(id);
		first.close();
		late.close();
	});

	it('refuses sockets for N seconds', async () => {
		await control(bed.emu, '/faults', { refuseSocketsForSeconds: 30 });
		const url = `${bed.emu.urls.workflow.replace('http', 'ws')}/ws?token=${bed.emu.apiKey}`;
		expect(await upgradeStatus(url)).toBe(503);
		await control(bed.emu, '/clock/advance', { ms: 31_000 });
		expect(await upgradeStatus(url)).toBe('open');
	});

	it('restarts: sockets dropped, 502 and refused sockets while down, then state (files, history) kept', async () => {
		const socket = await RecordingSocket.open(bed.emu);
		const id = (await api(bed.emu).submit(small({ '3': { steps: 1 } }))).body['prompt_id'] as string;
		await socket.untilDone(id);
		await control(bed.emu, '/workflow/restart', { downSeconds: 5 });
		await socket.until(() => socket.closed);
		const down = await api(bed.emu).get('/api/queue');
		expect(down.status).toBe(502);
		expect(down.headers.get('content-type')).toContain('text/html');
		expect(await upgradeStatus(`${bed.emu.urls.workflow.replace('http', 'ws')}/ws?token=${bed.emu.apiKey}`)).toBe(503);
		await control(bed.emu, '/clock/advance', { ms: 6000 });
		expect(Object.keys((await (await api(bed.emu).get(`/api/history/${id}`)).json()) as object)).toEqual([id]);
	});

	it('slows responses, serves HTML proxy pages and truncated JSON', async () => {
		await control(bed.emu, '/faults', { slowMs: 150 });
		const started = performance.now();
		expect((await api(bed.emu).get('/api/queue')).status).toBe(200);
		expect(performance.now() - started).toBeGreaterThanOrEqual(140);
		await control(bed.emu, '/faults/clear');
		await control(bed.emu, '/faults', { htmlErrorPage: true });
		const html = await api(bed.emu).get('/api/object_info');
		expect(html.status).toBe(502);
		expect(await html.text()).toContain('<html>');
		await control(bed.emu, '/faults/clear');
		await control(bed.emu, '/faults', { truncatedJson: true });
		const truncated = await api(bed.emu).get('/api/queue');
		expect(() => JSON.parse('x' + '')).toThrow();
		await expect(truncated.clone().json()).rejects.toThrow();
	});

	it('corrupts binary frames on demand (a short frame, then an unknown type)', async () => {
		await control(bed.emu, '/workflow/corrupt-frames', { enabled: true });
		const socket = await RecordingSocket.open(bed.emu, { previewMetadata: true });
		const id = (await api(bed.emu).submit(small({ '3': { steps: 2 } }))).body['prompt_id'] as string;
		await socket.untilDone(id);
		const frames = socket.binary();
		expect(frames).toHaveLength(2);
		expect(frames.every((f) => f.frame === undefined)).toBe(true);
		expect(new DataView(frames[1]!.raw.buffer, frames[1]!.raw.byteOffset).getUint32(0)).toBe(99);
		await control(bed.emu, '/workflow/corrupt-frames', { enabled: false });
		socket.close();
	});
});

describe('nothing is lost on bad input', () => {
	it('answers every malformed request with a 4xx and a message, and stays up', async () => {
		const garbage = [
			'',
			'{',
			'[]',
			'null',
			'"x"',
			'{"prompt": 5}',
			'{"prompt": {"1": null}}',
			'{"prompt": {"1": {"class_type": 7}}}',
			'{"prompt": {"1": {"class_type": "SaveImage", "inputs": {"images": [1, 2, 3]}}}}',
			'{"prompt": {}, "extra_data": 3}',
			'{"prompt": {"1": {"class_type": "SaveImage", "inputs": {"images": ["1", 0], "filename_prefix": "x"}}}}'
		];
		for (const body of garbage) {
			const res = await api(bed.emu).post('/api/prompt', body);
			expect([400, 500], body).toContain(res.status);
			const text = await res.text();
			expect(text.length, body).toBeGreaterThan(0);
		}
		for (const path of ['/api/queue', '/api/interrupt', '/api/history', '/api/assets/from-hash', '/api/upload/image', '/api/upload/mask']) {
			for (const body of ['{', '[1]', '"s"', '{"delete": {}}']) {
				const res = await api(bed.emu).post(path, body);
				expect(res.status, `${path} ${body}`).toBeLessThan(500);
			}
		}
		const huge = await api(bed.emu).get(`/api/view?filename=${'a'.repeat(5000)}`);
		expect(huge.status).toBe(404);
		expect((await api(bed.emu).get('/api/history?max_items=-1')).status).toBe(400);
		expect((await api(bed.emu).get('/api/object_info')).status).toBe(200);
	});
});

describe('the API key is never logged', () => {
	it('writes nothing carrying the key to stdout, stderr or the console through runs, errors and leaks', async () => {
		const written: string[] = [];
		const capture = (chunk: unknown) => {
			written.push(String(chunk));
			return true;
		};
		const spies = [
			vi.spyOn(process.stdout, 'write').mockImplementation(capture),
			vi.spyOn(process.stderr, 'write').mockImplementation(capture),
			...(['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
				vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void written.push(args.map(String).join(' ')))
			)
		];
		try {
			const socket = await RecordingSocket.open(bed.emu);
			const id = (await api(bed.emu).submit(partnerNodes as ApiPrompt, { extra_data: { api_key_service_org: bed.emu.apiKey } })).body[
				'prompt_id'
			] as string;
			await socket.untilDone(id);
			socket.close();
			await api(bed.emu).post('/api/prompt', '{bad');
			await fetch(`${bed.emu.urls.workflow}/api/queue`, { headers: { 'X-API-Key': `${bed.emu.apiKey}x` } });
			await fetch(`${bed.emu.urls.storage}/o/x/y?k=${bed.emu.apiKey}`);
			await upgradeStatus(`${bed.emu.urls.workflow.replace('http', 'ws')}/ws?token=${bed.emu.apiKey}x`);
		} finally {
			for (const spy of spies) spy.mockRestore();
		}
		expect(written.filter((w) => w.includes(bed.emu.apiKey))).toEqual([]);
	});
});
