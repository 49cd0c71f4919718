import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import textToImage from '../../src/lib/workflows/rules/examples/text-to-image.json';
import type { ApiPrompt } from '../../src/lib/workflows/protocol/workflow-api';
import { RecordingSocket, api, control, variant } from './test-support';
import { useWorkflowEmulator } from './use-workflow-emulator';

// Nodes in run order: 4 checkpoint, 5 latent, 6 and 7 prompts, 3 KSampler, 8 VAEDecode, 9 SaveImage (last).
const small = () => variant(textToImage as ApiPrompt, { '5': { width: 64, height: 64 }, '3': { steps: 2 } });

const bed = useWorkflowEmulator();

type History = Record<string, { status: { status_str: string; messages: Array<[string, Record<string, unknown>]> }; outputs: object }>;
const historyOf = async (id: string) => ((await (await api(bed.emu).get(`/api/history/${id}`)).json()) as History)[id]!;
const statusOf = async (id: string) => ((await (await api(bed.emu).get(`/api/job/${id}/status`)).json()) as { status: string }).status;
const controlState = async () =>
	(await (await fetch(`${bed.emu.urls.workflow}/__emulator/workflow/state`)).json()) as { holdNode: unknown; held: unknown[] };
const heldNodes = async () => (await controlState()).held;
const release = (filter: Record<string, string> = {}) => control(bed.emu, '/workflow/release', filter) as Promise<{ released: unknown[] }>;
const post = (path: string, body: unknown) =>
	fetch(`${bed.emu.urls.workflow}/__emulator/workflow/${path}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body)
	});

/** Submits the small text-to-image job and waits until `nodeId` has started (its `executing`). */
async function startAndReach(socket: RecordingSocket, nodeId: string): Promise<string> {
	const id = (await api(bed.emu).submit(small(), { client_id: 'test-client' })).body['prompt_id'] as string;
	await socket.until(() => started(socket, id, nodeId));
	return id;
}

const started = (socket: RecordingSocket, id: string, nodeId: string) =>
	socket.json('executing', id).some((m) => m.data['node'] === nodeId);

describe('the timing control holds a node', () => {
	it('takes {classType, ms} or {nodeId, ms}, without ms holds until released, clears with null, and refuses anything else with a message', async () => {
		expect(await control(bed.emu, '/workflow/timing', { holdNode: { classType: 'SaveImage', ms: 500 } })).toEqual({
			stepMs: 2,
			holdNode: { classType: 'SaveImage', ms: 500 }
		});
		expect((await controlState()).holdNode).toEqual({ classType: 'SaveImage', ms: 500 });
		expect(await control(bed.emu, '/workflow/timing', { stepMs: 3 })).toEqual({ stepMs: 3, holdNode: { classType: 'SaveImage', ms: 500 } });
		expect(await control(bed.emu, '/workflow/timing', { holdNode: { nodeId: '8', ms: 0 } })).toMatchObject({
			holdNode: { nodeId: '8', ms: 0 }
		});
		expect(await control(bed.emu, '/workflow/timing', { holdNode: { nodeId: '8' } })).toMatchObject({
			holdNode: { nodeId: '8', ms: null }
		});
		expect(await control(bed.emu, '/workflow/timing', { holdNode: { classType: 'KSampler', ms: null } })).toMatchObject({
			holdNode: { classType: 'KSampler', ms: null }
		});
		expect(await control(bed.emu, '/workflow/timing', { holdNode: null })).toMatchObject({ holdNode: null });
		for (const bad of [
			{},
			{ holdNode: { ms: 100 } },
			{ holdNode: { classType: 'SaveImage', nodeId: '9', ms: 100 } },
			{ holdNode: { classType: 'SaveImage', ms: -1 } },
			{ holdNode: { classType: 'SaveImage', ms: 'long' } },
			{ holdNode: { nodeId: '9', ms: 60_001 } },
			{ holdNode: { nodeId: 9, ms: 100 } },
			{ holdNode: 'SaveImage' },
			{ holdNode: { classType: 'KSampler', step: 0 } },
			{ holdNode: { classType: 'KSampler', step: 1.5 } },
			{ stepMs: 'fast' }
		]) {
			const res = await post('timing', bad);
			expect(res.status, JSON.stringify(bad)).toBe(400);
			expect(((await res.json()) as { message: string }).message).toMatch(/stepMs|holdNode/);
		}
		for (const bad of [{ promptId: 5 }, { nodeId: '' }, { job: 'x' }, []]) {
			const res = await post('release', bad);
			expect(res.status, JSON.stringify(bad)).toBe(400);
			expect(((await res.json()) as { message: string }).message).toMatch(/release/);
		}
	});

	it('holds a node until released, answering status, queue and uploads meanwhile; the control state lists it', async () => {
		await control(bed.emu, '/workflow/timing', { holdNode: { nodeId: '8' } });
		const socket = await RecordingSocket.open(bed.emu);
		const id = await startAndReach(socket, '8');
		await expect.poll(heldNodes).toEqual([{ promptId: id, nodeId: '8', classType: 'VAEDecode' }]);
		expect(await statusOf(id)).toBe('in_progress');
		const queue = (await (await api(bed.emu).get('/api/queue')).json()) as { queue_running: unknown[][] };
		expect(queue.queue_running.map((q) => q[1])).toEqual([id]);
		const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
			.png()
			.toBuffer();
		expect((await api(bed.emu).upload('/api/upload/image', 'during-hold.png', new Uint8Array(png))).status).toBe(200);
		// All three were answered while node 8 was held: the next node has not started.
		expect(started(socket, id, '9')).toBe(false);
		expect(socket.json('executed', id)).toEqual([]);
		expect(await release({ promptId: 'another-job' })).toEqual({ released: [] });
		expect(await release({ promptId: id })).toEqual({ released: [{ promptId: id, nodeId: '8', classType: 'VAEDecode' }] });
		const done = await socket.untilDone(id);
		expect(done.map((m) => m.type)).toContain('execution_success');
		expect(await controlState()).toMatchObject({ holdNode: { nodeId: '8', ms: null }, held: [] });
		socket.close();
	});

	it('holds every matching node as it starts: a release by node id lets one go, and a reset lets every held node go and clears the hold', async () => {
		await control(bed.emu, '/workflow/timing', { holdNode: { classType: 'CLIPTextEncode' } });
		const socket = await RecordingSocket.open(bed.emu);
		const id = await startAndReach(socket, '6');
		await expect.poll(heldNodes).toEqual([{ promptId: id, nodeId: '6', classType: 'CLIPTextEncode' }]);
		expect(await release({ nodeId: '7' })).toEqual({ released: [] });
		expect((await release({ nodeId: '6' })).released).toHaveLength(1);
		await socket.until(() => started(socket, id, '7'));
		await expect.poll(heldNodes).toEqual([{ promptId: id, nodeId: '7', classType: 'CLIPTextEncode' }]);
		await control(bed.emu, '/reset');
		await control(bed.emu, '/workflow/timing', { stepMs: 2 });
		expect(await controlState()).toMatchObject({ holdNode: null, held: [] });
		const next = await startAndReach(socket, '9');
		expect((await socket.untilDone(next)).map((m) => m.type)).toContain('execution_success');
		socket.close();
	});

	it('with a step, holds a sampler once it has reported that step, its preview sent; a stop releases it and is read at the next step', async () => {
		await control(bed.emu, '/workflow/timing', { holdNode: { classType: 'KSampler', step: 1 } });
		const socket = await RecordingSocket.open(bed.emu, { previewMetadata: true });
		const id = await startAndReach(socket, '3');
		await expect.poll(heldNodes).toEqual([{ promptId: id, nodeId: '3', classType: 'KSampler', step: 1 }]);
		await socket.until(() => socket.binary().length > 0);
		expect(socket.json('progress', id).map((m) => m.data['value'])).toEqual([1]);
		await api(bed.emu).post('/api/interrupt', { prompt_id: id });
		const done = await socket.untilDone(id);
		expect(done.find((m) => m.type === 'execution_interrupted')?.data).toMatchObject({ node_id: '3', node_type: 'KSampler' });
		expect(socket.json('progress', id).map((m) => m.data['value'])).toEqual([1]);

		const next = await startAndReach(socket, '3');
		await expect.poll(heldNodes).toHaveLength(1);
		await release();
		expect((await socket.untilDone(next)).map((m) => m.type)).toContain('execution_success');
		socket.close();
	});

	it('keeps a node busy for ms with a timed hold, and a stop sent meanwhile waits it out', async () => {
		const HOLD_MS = 250;
		// Both prompts (6, then 7) are held: wherever the stop lands, the node that had started before it ran its full time.
		await control(bed.emu, '/workflow/timing', { holdNode: { classType: 'CLIPTextEncode', ms: HOLD_MS } });
		const socket = await RecordingSocket.open(bed.emu);
		const id = await startAndReach(socket, '6');
		expect(await heldNodes()).toEqual([]);
		await api(bed.emu).post('/api/interrupt', { prompt_id: id });
		const done = await socket.untilDone(id);
		const interrupted = done.find((m) => m.type === 'execution_interrupted')!.data;
		expect(interrupted['executed']).toContain('6');
		// The server's own clock, so a late delivery here cannot skew it: wherever the stop landed, node
		// 6 was held in full before the job could end (a millisecond of timer slack allowed).
		const started = done.find((m) => m.type === 'execution_start')!.data['timestamp'] as number;
		expect((interrupted['timestamp'] as number) - started).toBeGreaterThanOrEqual(HOLD_MS - 5);
		expect(await statusOf(id)).toBe('cancelled');
		socket.close();
	});
});

describe('a stop takes effect at the next node boundary, as in ComfyUI', () => {
	const stops = [
		{ how: 'an interrupt', send: (id: string) => api(bed.emu).post('/api/interrupt', { prompt_id: id }) },
		{ how: 'a queue delete (the cloud stops running jobs too)', send: (id: string) => api(bed.emu).post('/api/queue', { delete: [id] }) }
	];

	it.each(stops)('$how releases a held node that is not the last, and the job ends cancelled as the next node starts', async ({ send }) => {
		await control(bed.emu, '/workflow/timing', { holdNode: { classType: 'VAEDecode' } });
		const socket = await RecordingSocket.open(bed.emu);
		const id = await startAndReach(socket, '8');
		await expect.poll(heldNodes).toHaveLength(1);
		expect((await send(id)).status).toBe(200);
		const done = await socket.untilDone(id);
		// The held node was not cut short: it ended. As in ComfyUI, the next node was announced and the
		// stop was read as its function started, so the interrupt names that next node, which never ran.
		const interrupted = done.find((m) => m.type === 'execution_interrupted')!.data;
		expect(interrupted).toMatchObject({ prompt_id: id, node_id: '9', node_type: 'SaveImage' });
		expect(interrupted['executed']).toContain('8');
		expect(interrupted['executed']).not.toContain('9');
		expect(started(socket, id, '9')).toBe(true);
		expect(socket.json('executed', id).some((m) => m.data['node'] === '9')).toBe(false);
		expect(done.map((m) => m.type)).not.toContain('execution_success');
		expect(await statusOf(id)).toBe('cancelled');
		const history = await historyOf(id);
		expect(history.status.status_str).toBe('cancelled');
		expect(history.status.messages.map(([type]) => type)).toContain('execution_interrupted');
		expect(history.outputs).toEqual({});
		expect(await heldNodes()).toEqual([]);
		socket.close();
	});

	it.each(stops)(
		'$how during a held last node is too late: it releases the node and the job completes with its outputs',
		async ({ send }) => {
			await control(bed.emu, '/workflow/timing', { holdNode: { classType: 'SaveImage' } });
			const socket = await RecordingSocket.open(bed.emu);
			const id = await startAndReach(socket, '9');
			await expect.poll(heldNodes).toHaveLength(1);
			expect((await send(id)).status).toBe(200);
			const done = await socket.untilDone(id);
			expect(done.map((m) => m.type)).toContain('execution_success');
			expect(done.map((m) => m.type)).not.toContain('execution_interrupted');
			expect(await statusOf(id)).toBe('completed');
			const history = await historyOf(id);
			expect(history.status.status_str).toBe('success');
			expect(history.outputs).toMatchObject({ '9': { images: [{ type: 'output' }] } });
			socket.close();
		}
	);

	it('in comfyui-local: an interrupt during a held middle node ends the job as an error with execution_interrupted in history; during the last node, success', async () => {
		await control(bed.emu, '/scenario', { name: 'comfyui-local' });
		const socket = await RecordingSocket.open(bed.emu);
		await control(bed.emu, '/workflow/timing', { holdNode: { nodeId: '8' } });
		const middle = await startAndReach(socket, '8');
		await expect.poll(heldNodes).toHaveLength(1);
		await api(bed.emu).post('/api/interrupt', {});
		await socket.untilDone(middle);
		const stopped = await historyOf(middle);
		// ComfyUI has no cancelled state: an interrupted prompt's history says error, with the interrupt among its messages.
		expect(stopped.status.status_str).toBe('error');
		expect(stopped.status.messages.find(([type]) => type === 'execution_interrupted')?.[1]).toMatchObject({ node_id: '9' });

		await control(bed.emu, '/workflow/timing', { holdNode: { nodeId: '9' } });
		const last = await startAndReach(socket, '9');
		await expect.poll(heldNodes).toHaveLength(1);
		await api(bed.emu).post('/api/interrupt', {});
		await socket.untilDone(last);
		expect((await historyOf(last)).status.status_str).toBe('success');
		socket.close();
	});

	it('in comfyui-local: deleting the running job from the queue neither stops nor releases it, as ComfyUI only drops pending ones', async () => {
		await control(bed.emu, '/scenario', { name: 'comfyui-local' });
		const socket = await RecordingSocket.open(bed.emu);
		await control(bed.emu, '/workflow/timing', { holdNode: { nodeId: '8' } });
		const id = await startAndReach(socket, '8');
		await expect.poll(heldNodes).toHaveLength(1);
		expect((await api(bed.emu).post('/api/queue', { delete: [id] })).status).toBe(200);
		expect(await heldNodes()).toHaveLength(1);
		await release();
		await socket.untilDone(id);
		expect((await historyOf(id)).status.status_str).toBe('success');
		socket.close();
	});
});
