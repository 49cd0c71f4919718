import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Emulator } from '../index';
import textToImage from '../../src/lib/workflows/rules/examples/text-to-image.json';
import partnerNodes from '../../src/lib/workflows/rules/examples/partner-nodes.json';
import textToAnimation from '../../src/lib/workflows/rules/examples/text-to-animation.json';
import type { ApiPrompt } from '../../src/lib/workflows/protocol/workflow-api';
import { RecordingSocket, api, control, variant, startEmulator } from './test-support';

const small = (changes: Record<string, Record<string, unknown>> = {}) =>
	variant(textToImage as ApiPrompt, { '5': { width: 64, height: 64 }, ...changes });

let emu: Emulator;
let local: ReturnType<typeof api>;
beforeAll(async () => {
	emu = await startEmulator({ scenario: 'comfyui-local' });
});
afterAll(async () => emu.close());
beforeEach(async () => {
	await control(emu, '/reset');
	await control(emu, '/scenario', { name: 'comfyui-local' });
	await control(emu, '/workflow/timing', { stepMs: 2 });
	local = api(emu, {});
});

const noKey = (path: string, init: RequestInit = {}) => fetch(`${emu.urls.workflow}${path}`, { ...init, redirect: 'manual' });

describe('comfyui-local scenario', () => {
	it('needs no key, and has no job-status route (bare 404 without CORS)', async () => {
		expect((await noKey('/object_info')).status).toBe(200);
		const socket = await RecordingSocket.open(emu, { token: null, clientId: 'me' });
		const id = (await (
			await noKey('/prompt', { method: 'POST', body: JSON.stringify({ prompt: small({ '3': { steps: 1 } }), client_id: 'me' }) })
		).json()) as { prompt_id: string };
		await socket.untilDone(id.prompt_id);
		socket.close();
		for (const [path, method] of [
			[`/api/job/${id.prompt_id}/status`, 'GET'],
			['/api/no/such/route', 'GET']
		] as const) {
			const res = await noKey(path, { method, headers: { Origin: 'http://app.test' } });
			expect(res.status, path).toBe(404);
			expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
		}
		const history = (await (await noKey(`/history/${id.prompt_id}`)).json()) as Record<
			string,
			{ status: { status_str: string; completed: boolean } }
		>;
		expect(history[id.prompt_id]!.status).toMatchObject({ status_str: 'success', completed: true });
	});

	it('sends execution events only to the submitting clientId; status and TEXT frames to everyone', async () => {
		const mine = await RecordingSocket.open(emu, { token: null, clientId: 'me' });
		const other = await RecordingSocket.open(emu, { token: null, clientId: 'other' });
		const res = await noKey('/api/prompt', {
			method: 'POST',
			body: JSON.stringify({ prompt: partnerNodes, client_id: 'me', extra_data: { api_key_comfy_org: 'local-login' } })
		});
		const id = ((await res.json()) as { prompt_id: string }).prompt_id;
		await mine.untilDone(id);
		await other.until(() => other.binary().length >= 8);
		expect(other.json(undefined, id)).toEqual([]);
		expect(other.json('status').length).toBeGreaterThan(1);
		expect(other.binary().every((b) => b.frame?.kind === 'text')).toBe(true);
		expect(mine.json('executed', id)).toHaveLength(2);
		mine.close();
		other.close();
	});

	it('tells the submitting client which node runs when it reconnects, without a prompt_id, as ComfyUI does', async () => {
		await control(emu, '/workflow/timing', { stepMs: 10 });
		const first = await RecordingSocket.open(emu, { token: null, clientId: 'me' });
		const id = (
			(await (
				await noKey('/prompt', { method: 'POST', body: JSON.stringify({ prompt: small({ '3': { steps: 40 } }), client_id: 'me' }) })
			).json()) as { prompt_id: string }
		).prompt_id;
		await first.until(() => first.json('progress', id).length > 0);
		first.close();
		const stranger = await RecordingSocket.open(emu, { token: null, clientId: 'stranger' });
		const back = await RecordingSocket.open(emu, { token: null, clientId: 'me' });
		expect(back.json()[1]).toEqual({ type: 'executing', data: { node: '3' } });
		expect(stranger.json().map((m) => m.type)).toEqual(['status']);
		await back.untilDone(id);
		stranger.close();
		back.close();
	});

	it('answers /view without filename with a bare 404, as ComfyUI does', async () => {
		expect((await noKey('/view?type=output')).status).toBe(404);
	});

	it('sends to the newest socket of a clientId only, as ComfyUI keys sockets by sid', async () => {
		const old = await RecordingSocket.open(emu, { token: null, clientId: 'me' });
		const fresh = await RecordingSocket.open(emu, { token: null, clientId: 'me' });
		const id = (
			(await (
				await noKey('/prompt', { method: 'POST', body: JSON.stringify({ prompt: small({ '3': { steps: 2 } }), client_id: 'me' }) })
			).json()) as { prompt_id: string }
		).prompt_id;
		await fresh.untilDone(id);
		expect(old.json(undefined, id)).toEqual([]);
		old.close();
		fresh.close();
	});

	it('fails a partner node without a login at run time, not at submit', async () => {
		const socket = await RecordingSocket.open(emu, { token: null, clientId: 'me' });
		const res = await noKey('/prompt', { method: 'POST', body: JSON.stringify({ prompt: partnerNodes, client_id: 'me' }) });
		expect(res.status).toBe(200);
		const id = ((await res.json()) as { prompt_id: string }).prompt_id;
		const done = await socket.untilDone(id);
		expect(done.find((m) => m.type === 'execution_error')!.data).toMatchObject({ exception_message: expect.stringContaining('login') });
		socket.close();
	});

	it('reports an interrupted run as an error in history (no cancelled state) and ignores delete of a running job', async () => {
		await control(emu, '/workflow/timing', { stepMs: 20 });
		const socket = await RecordingSocket.open(emu, { token: null, clientId: 'me' });
		const submit = async (seed: number) =>
			(
				(await (
					await noKey('/prompt', {
						method: 'POST',
						body: JSON.stringify({ prompt: small({ '3': { steps: 200, seed } }), client_id: 'me' })
					})
				).json()) as { prompt_id: string }
			).prompt_id;
		const a = await submit(1);
		const b = await submit(2);
		await socket.until(() => socket.json('progress', a).length >= 1);
		await noKey('/queue', { method: 'POST', body: JSON.stringify({ delete: [a, b] }) });
		const queue = (await (await noKey('/queue')).json()) as { queue_running: unknown[][]; queue_pending: unknown[][] };
		expect(queue.queue_running.map((q) => q[1])).toEqual([a]);
		expect(queue.queue_pending).toEqual([]);
		await noKey('/interrupt', { method: 'POST' });
		const done = await socket.untilDone(a);
		expect(done.map((m) => m.type)).toContain('execution_interrupted');
		const history = (await (await noKey('/history')).json()) as Record<
			string,
			{ status: { status_str: string; messages: Array<[string]> } }
		>;
		expect(Object.keys(history)).toEqual([a]);
		expect(history[a]!.status.status_str).toBe('error');
		expect(history[a]!.status.messages.map((m) => m[0])).toContain('execution_interrupted');
		socket.close();
	});

	it('renames an upload whose name is taken by other bytes, keeps it for the same bytes, and serves /view directly', async () => {
		const red = new Uint8Array(
			await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
				.png()
				.toBuffer()
		);
		const blue = new Uint8Array(
			await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00f' } })
				.png()
				.toBuffer()
		);
		const names: string[] = [];
		for (const bytes of [red, red, blue, blue])
			names.push(((await (await local.upload('/upload/image', 'photo.png', bytes)).json()) as { name: string }).name);
		expect(names).toEqual(['photo.png', 'photo.png', 'photo (1).png', 'photo (1).png']);
		const view = await noKey('/view?filename=photo%20(1).png&type=input&subfolder=');
		expect(view.status).toBe(200);
		expect(view.headers.get('content-type')).toBe('image/png');
		expect(new Uint8Array(await view.arrayBuffer())).toEqual(blue);
		const preview = await noKey('/view?filename=photo.png&type=input&preview=webp;90');
		expect(preview.headers.get('content-type')).toBe('image/webp');
	});

	it('reports animated output as images with animated: [true], as ComfyUI does', async () => {
		const socket = await RecordingSocket.open(emu, { token: null, clientId: 'me' });
		const prompt = variant(textToAnimation as ApiPrompt, { '4': { width: 32, height: 32, batch_size: 2 }, '5': { steps: 1 } });
		const id = (
			(await (await noKey('/prompt', { method: 'POST', body: JSON.stringify({ prompt, client_id: 'me' }) })).json()) as {
				prompt_id: string;
			}
		).prompt_id;
		const done = await socket.untilDone(id);
		expect(done.find((m) => m.type === 'executed')!.data['output']).toEqual({
			images: [{ filename: 'animation_00001_.webp', subfolder: '', type: 'output' }],
			animated: [true]
		});
		socket.close();
	});
});
