/**
 * The two local ComfyUI scenarios side by side: a current server (`comfyui-local`, with the job
 * routes, job cancel and a disabled assets service) and 0.3.64 (`comfyui-local-legacy`, none of
 * those). Both answer /api/features, as the real 0.3.64 does. Both keep history in memory, ignore a queue delete of
 * the running job, output text, send no request ids and take only UUIDs as a client's prompt_id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Emulator } from '../index';
import textToImage from '../../src/lib/workflows/rules/examples/text-to-image.json';
import type { ApiPrompt } from '../../src/lib/workflows/protocol/workflow-api';
import { RecordingSocket, control, variant, startEmulator } from './test-support';

const SCENARIOS = ['comfyui-local', 'comfyui-local-legacy'] as const;
const ORIGIN = { Origin: 'http://app.test' };

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ scenario: 'comfyui-local' });
});
afterAll(async () => emu.close());

const call = (path: string, init: RequestInit = {}) =>
	fetch(`${emu.urls.workflow}${path}`, { ...init, headers: { ...ORIGIN, ...(init.headers ?? {}) } });

const prompt = (steps: number, seed = 1): ApiPrompt => ({
	...variant(textToImage as ApiPrompt, { '5': { width: 64, height: 64 }, '3': { steps, seed } }),
	'20': { class_type: 'PreviewAny', inputs: { source: 'a red fox' } }
});

async function submit(body: Record<string, unknown>): Promise<Response> {
	return call('/api/prompt', { method: 'POST', body: JSON.stringify({ client_id: 'me', ...body }) });
}
async function submitted(steps: number, seed = 1): Promise<string> {
	const res = await submit({ prompt: prompt(steps, seed), prompt_id: randomUUID() });
	expect(res.status).toBe(200);
	return ((await res.json()) as { prompt_id: string }).prompt_id;
}

describe.each(SCENARIOS)('%s', (scenario) => {
	const current = scenario === 'comfyui-local';
	let socket: RecordingSocket;
	const setUp = async (stepMs = 2) => {
		await control(emu, '/reset');
		await control(emu, '/scenario', { name: scenario });
		await control(emu, '/workflow/timing', { stepMs });
		socket = await RecordingSocket.open(emu, { token: null, clientId: 'me' });
	};

	it('outputs text (PreviewAny) in executed and history, and sends no request ids', async () => {
		await setUp();
		const id = await submitted(1);
		const done = await socket.untilDone(id);
		const executed = done.filter((m) => m.type === 'executed' && m.data['node'] === '20');
		expect(executed[0]!.data['output']).toEqual({ text: ['a red fox'] });
		const res = await call(`/api/history/${id}`);
		const history = (await res.json()) as Record<string, { outputs: Record<string, unknown> }>;
		expect(history[id]!.outputs['20']).toEqual({ text: ['a red fox'] });
		for (const name of ['x-request-id', 'x-service-request-id']) expect(res.headers.get(name)).toBeNull();
		socket.close();
	});

	it.each([
		['not a UUID', 'run-1', 400],
		['upper case', randomUUID().toUpperCase(), 400],
		['without hyphens', randomUUID().replaceAll('-', ''), 400],
		['a number', 42, 400],
		['canonical', randomUUID(), 200]
	])('takes a client prompt_id only in canonical UUID form: %s', async (_, promptId, status) => {
		await setUp();
		const res = await submit({ prompt: prompt(1), prompt_id: promptId });
		expect(res.status).toBe(status);
		const body = (await res.json()) as { prompt_id?: string; error?: { type: string } };
		if (status === 400) expect(body.error?.type).toBe('invalid_prompt_id');
		else expect(body.prompt_id).toBe(promptId);
		socket.close();
	});

	it('forgets its queue and history on restart, keeping its files', async () => {
		await setUp(20);
		const finished = await submitted(1, 1);
		await socket.untilDone(finished);
		const running = await submitted(200, 2);
		const waiting = await submitted(200, 3);
		await socket.until(() => socket.json('progress', running).length > 0);
		await control(emu, '/workflow/restart', { downSeconds: 0 });
		const queue = (await (await call('/api/queue')).json()) as { queue_running: unknown[]; queue_pending: unknown[] };
		expect(queue).toEqual({ queue_running: [], queue_pending: [] });
		expect(await (await call('/api/history')).json()).toEqual({});
		const image = ((await (await call(`/api/view?filename=ComfyUI_00001_.png&type=output`)).arrayBuffer()) as ArrayBuffer).byteLength;
		expect(image).toBeGreaterThan(0);
		const after = await RecordingSocket.open(emu, { token: null, clientId: 'me' });
		await new Promise((r) => setTimeout(r, 100));
		expect(after.json(undefined, running)).toEqual([]);
		expect(after.json(undefined, waiting)).toEqual([]);
		after.close();
	});

	it('ignores a queue delete of the running job; an interrupt names the node and what had finished', async () => {
		await setUp(20);
		const id = await submitted(200);
		await socket.until(() => socket.json('progress', id).length > 0);
		await call('/api/queue', { method: 'POST', body: JSON.stringify({ delete: [id] }) });
		const queue = (await (await call('/api/queue')).json()) as { queue_running: unknown[][] };
		expect(queue.queue_running.map((q) => q[1])).toEqual([id]);
		await call('/api/interrupt', { method: 'POST', body: JSON.stringify({ prompt_id: id }) });
		const done = await socket.untilDone(id);
		const interrupted = done.find((m) => m.type === 'execution_interrupted')!.data;
		expect(interrupted).toMatchObject({ prompt_id: id, node_id: '3', node_type: 'KSampler' });
		expect(interrupted['executed']).toEqual(expect.arrayContaining(['4', '5', '6', '7']));
		socket.close();
	});

	it('answers /api/features as the real 0.3.64 does (200, with CORS)', async () => {
		await setUp();
		const res = await call('/api/features');
		expect(res.status).toBe(200);
		expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN.Origin);
		expect(await res.json()).toEqual({ supports_preview_metadata: true, max_upload_size: 104857600 });
		socket.close();
	});

	it(
		current ? 'answers from-hash with 503 SERVICE_DISABLED (assets off)' : 'has no from-hash (bare 405 without CORS, as the real 0.3.64)',
		async () => {
			await setUp();
			const res = await call('/api/assets/from-hash', {
				method: 'POST',
				body: JSON.stringify({ hash: `blake3:${'ab'.repeat(32)}`, tags: ['input'] })
			});
			if (current) {
				expect(res.status).toBe(503);
				expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN.Origin);
				expect(((await res.json()) as { error: { code: string } }).error.code).toBe('SERVICE_DISABLED');
			} else {
				expect(res.status).toBe(405);
				expect(res.headers.get('access-control-allow-origin')).toBeNull();
			}
			socket.close();
		}
	);

	it.runIf(!current)('has no job routes: a bare 404 for a GET, 405 for a POST, without CORS (as the real 0.3.64)', async () => {
		await setUp();
		const id = randomUUID();
		for (const [path, method, status] of [
			['/api/jobs?limit=1', 'GET', 404],
			[`/api/jobs/${id}`, 'GET', 404],
			[`/api/jobs/${id}/cancel`, 'POST', 405],
			['/api/jobs/cancel', 'POST', 405],
			[`/api/job/${id}/status`, 'GET', 404]
		] as const) {
			const res = await call(path, { method });
			expect(res.status, path).toBe(status);
			expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
		}
		socket.close();
	});

	it.runIf(current)('lists jobs and cancels by id: running interrupted, pending removed, finished a no-op', async () => {
		await setUp(20);
		const running = await submitted(200, 1);
		const pending = await submitted(200, 2);
		await socket.until(() => socket.json('progress', running).length > 0);
		const list = (await (await call('/api/jobs')).json()) as { jobs: Array<{ id: string; status: string }> };
		expect(list.jobs.map((j) => [j.id, j.status])).toEqual([
			[pending, 'pending'],
			[running, 'in_progress']
		]);
		const cancel = async (id: string) =>
			((await (await call(`/api/jobs/${id}/cancel`, { method: 'POST' })).json()) as { cancelled: boolean }).cancelled;
		expect(await cancel(pending)).toBe(true);
		expect(await cancel(running)).toBe(true);
		await socket.untilDone(running);
		const job = (await (await call(`/api/jobs/${running}`)).json()) as { status: string; execution_status: { status_str: string } };
		expect(job.status).toBe('cancelled');
		expect(job.execution_status.status_str).toBe('error');
		expect((await call(`/api/jobs/${pending}`)).status).toBe(404);
		expect(await cancel(running)).toBe(false);
		expect(await cancel(randomUUID())).toBe(false);
		socket.close();
	});

	it.runIf(current)('cancels many jobs in one batch call: waiting ones removed, the running one interrupted', async () => {
		await setUp(20);
		const running = await submitted(200, 1);
		const first = await submitted(200, 2);
		const second = await submitted(200, 3);
		const kept = await submitted(200, 4);
		await socket.until(() => socket.json('progress', running).length > 0);
		const res = await call('/api/jobs/cancel', { method: 'POST', body: JSON.stringify({ job_ids: [running, first, second, 'gone'] }) });
		expect(res.status).toBe(200);
		const body = (await res.json()) as { cancelled: string[]; not_cancelled: string[] };
		expect(new Set(body.cancelled)).toEqual(new Set([running, first, second]));
		expect(body.not_cancelled).toEqual(['gone']);
		await socket.untilDone(running);
		const queue = (await (await call('/api/queue')).json()) as { queue_running: unknown[][]; queue_pending: unknown[][] };
		expect([...queue.queue_running, ...queue.queue_pending].map((q) => q[1])).toEqual([kept]);
		expect((await call('/api/jobs/cancel', { method: 'POST', body: JSON.stringify({ job_ids: 'x' }) })).status).toBe(400);
		socket.close();
	});

	it('says its version in /system_stats', async () => {
		await setUp();
		const stats = (await (await call('/system_stats')).json()) as { system: { comfyui_version: string } };
		expect(stats.system.comfyui_version).toBe(current ? '0.4.2' : '0.3.64');
		socket.close();
	});

	it('deletes finished jobs from its history as the real 0.3.64 does: 200 with no body, a running one kept', async () => {
		await setUp(20);
		const finished = await submitted(1, 1);
		await socket.untilDone(finished);
		const running = await submitted(200, 2);
		await socket.until(() => socket.json('progress', running).length > 0);
		const res = await call('/history', { method: 'POST', body: JSON.stringify({ delete: [finished, running, 'unknown'] }) });
		expect(res.status).toBe(200);
		expect(await res.text()).toBe('');
		expect(await (await call(`/history/${finished}`)).json()).toEqual({});
		// Other JSON is taken and ignored; a body that is not JSON is its plain-text 500.
		expect((await call('/history', { method: 'POST', body: '[1]' })).status).toBe(200);
		expect((await call('/history', { method: 'POST', body: JSON.stringify({ delete: 'x' }) })).status).toBe(200);
		expect((await call('/history', { method: 'POST', body: 'not json' })).status).toBe(500);
		await call('/api/interrupt', { method: 'POST', body: JSON.stringify({ prompt_id: running }) });
		await socket.untilDone(running);
		expect(Object.keys((await (await call(`/history/${running}`)).json()) as object)).toEqual([running]);
		socket.close();
	});
});
