import { describe, expect, it } from 'vitest';
import textToImage from '../../src/lib/workflows/rules/examples/text-to-image.json';
import partnerNodes from '../../src/lib/workflows/rules/examples/partner-nodes.json';
import type { ApiPrompt } from '../../src/lib/workflows/protocol/workflow-api';
import { FrameType } from '../../src/lib/workflows/protocol/frames';
import { RecordingSocket, api, control, variant } from './test-support';
import { useWorkflowEmulator } from './use-workflow-emulator';

const t2i = textToImage as ApiPrompt;
const partner = partnerNodes as ApiPrompt;
const small = (changes: Record<string, Record<string, unknown>> = {}) => variant(t2i, { '5': { width: 64, height: 64 }, ...changes });

const bed = useWorkflowEmulator();

const statusOf = async (id: string) => ((await (await api(bed.emu).get(`/api/job/${id}/status`)).json()) as { status: string }).status;

describe('KSampler previews and binary frames', () => {
	it('sends a JPEG type-1 frame per step to plain clients and type 4 with the job id to clients that asked', async () => {
		const plain = await RecordingSocket.open(bed.emu, { clientId: 'a' });
		const rich = await RecordingSocket.open(bed.emu, { clientId: 'b', previewMetadata: true });
		expect(rich.json('feature_flags')[0]!.data).toMatchObject({ supports_preview_metadata: true });
		const { body } = await api(bed.emu).submit(small({ '3': { steps: 5 } }));
		const id = body['prompt_id'] as string;
		await plain.untilDone(id);
		await rich.untilDone(id);
		const plainFrames = plain.binary();
		expect(plainFrames).toHaveLength(5);
		for (const f of plainFrames) {
			expect(f.frame).toMatchObject({ kind: 'preview', mime: 'image/jpeg' });
			// Image type sits at offset 4 (not 0), big-endian.
			expect([...f.raw.subarray(0, 8)]).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
			expect([...f.raw.subarray(8, 11)]).toEqual([0xff, 0xd8, 0xff]);
		}
		const richFrames = rich.binary();
		expect(richFrames).toHaveLength(5);
		expect(richFrames[0]!.frame).toMatchObject({
			kind: 'preview-with-metadata',
			metadata: { node_id: '3', prompt_id: id, parent_node_id: null },
			mime: 'image/jpeg'
		});
		// Each preview follows its progress message.
		const order = plain.received
			.filter((r) => r.kind === 'binary' || (r.kind === 'json' && r.message.type === 'progress'))
			.map((r) => (r.kind === 'binary' ? 'frame' : 'progress'));
		expect(order.slice(0, 4)).toEqual(['progress', 'frame', 'progress', 'frame']);
		expect(plain.json('progress', id).map((m) => m.data['value'])).toEqual([1, 2, 3, 4, 5]);
		expect(plain.json('progress', id)[0]!.data).toMatchObject({ max: 5, node: '3' });
		const state = plain.json('progress_state', id).at(-1)!;
		expect(state.data['nodes']).toMatchObject({ '3': { state: 'finished', node_id: '3', prompt_id: id } });
		plain.close();
		rich.close();
	});

	it('sends TEXT frames from partner nodes and runs them only with the key in extra_data', async () => {
		const missing = await api(bed.emu).submit(partner);
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({
			error: { type: 'missing_api_key_service_org' },
			node_errors: { '1': { class_type: 'StabilityStableImageUltraNode' } }
		});
		const wrong = await api(bed.emu).submit(partner, { extra_data: { api_key_service_org: 'someone-elses-key' } });
		expect(wrong.status).toBe(400);
		expect(wrong.body).toMatchObject({ error: { type: 'invalid_api_key_service_org' } });
		expect(JSON.stringify(wrong.body)).not.toContain('someone-elses-key');
		const socket = await RecordingSocket.open(bed.emu);
		const ok = await api(bed.emu).submit(partner, { extra_data: { api_key_service_org: bed.emu.apiKey } });
		const id = ok.body['prompt_id'] as string;
		const done = await socket.untilDone(id);
		expect(done.map((m) => m.type)).toContain('execution_success');
		const texts = socket.binary().map((b) => b.frame);
		expect(texts[0]).toMatchObject({
			kind: 'text',
			nodeId: expect.stringMatching(/^[13]$/),
			text: expect.stringContaining('Task in progress')
		});
		const audio = done.find((m) => m.type === 'executed' && m.data['node'] === '4')!;
		expect(audio.data['output']).toMatchObject({ audio: [{ filename: 'partner_00001_.wav', subfolder: 'audio', type: 'output' }] });
		const wav = await fetch(
			(await api(bed.emu).get('/api/view?filename=partner_00001_.wav&type=output&subfolder=audio')).headers.get('location')!
		);
		const bytes = new Uint8Array(await wav.arrayBuffer());
		expect(wav.headers.get('content-type')).toBe('audio/wav');
		expect(Buffer.from(bytes.subarray(0, 4)).toString()).toBe('RIFF');
		expect(Buffer.from(bytes.subarray(8, 12)).toString()).toBe('WAVE');
		// The key never shows in queue or history.
		expect(JSON.stringify(await (await api(bed.emu).get(`/api/history/${id}`)).json())).not.toContain(bed.emu.apiKey);
		socket.close();
	});
});

describe('caching', () => {
	it('reruns of the same prompt announce cached nodes and skip their executing events', async () => {
		const socket = await RecordingSocket.open(bed.emu);
		const first = (await api(bed.emu).submit(small({ '3': { steps: 2 } }))).body['prompt_id'] as string;
		await socket.untilDone(first);
		const second = (await api(bed.emu).submit(small({ '3': { steps: 2 } }))).body['prompt_id'] as string;
		const done = await socket.untilDone(second);
		expect(done.find((m) => m.type === 'execution_cached')!.data['nodes']).toEqual(['4', '6', '7', '5', '3', '8', '9']);
		expect(done.filter((m) => m.type === 'executing').map((m) => m.data['node'])).toEqual([null]);
		// The cached output node still reports its output, as ComfyUI does.
		expect(done.find((m) => m.type === 'executed')!.data['output']).toMatchObject({ images: [{ filename: 'ComfyUI_00001_.png' }] });
		// A new seed re-runs the sampler and what follows it, and reuses the rest.
		const third = (await api(bed.emu).submit(small({ '3': { steps: 2, seed: 9 } }))).body['prompt_id'] as string;
		const rerun = await socket.untilDone(third);
		expect(rerun.find((m) => m.type === 'execution_cached')!.data['nodes']).toEqual(['4', '6', '7', '5']);
		expect(rerun.filter((m) => m.type === 'executing').map((m) => m.data['node'])).toEqual(['3', '8', '9', null]);
		socket.close();
	});
});

describe('tier queue, interrupt and delete', () => {
	it('queues a second job behind the first at tier concurrency 1', async () => {
		await control(bed.emu, '/workflow/timing', { stepMs: 20 });
		const socket = await RecordingSocket.open(bed.emu);
		const a = (await api(bed.emu).submit(small({ '3': { steps: 10, seed: 1 } }))).body['prompt_id'] as string;
		const b = (await api(bed.emu).submit(small({ '3': { steps: 10, seed: 2 } }))).body['prompt_id'] as string;
		expect(await statusOf(b)).toBe('pending');
		await socket.until(() => socket.json('notification').length > 0);
		expect(socket.json('notification')[0]!.data).toMatchObject({ value: expect.stringContaining('1 job at a time'), prompt_id: b });
		const queue = (await (await api(bed.emu).get('/api/queue')).json()) as { queue_running: unknown[][]; queue_pending: unknown[][] };
		expect(queue.queue_running.map((q) => q[1])).toEqual([a]);
		expect(queue.queue_pending.map((q) => q[1])).toEqual([b]);
		expect(await statusOf(a)).toBe('in_progress');
		await socket.untilDone(b);
		const starts = socket.json('execution_start').map((m) => m.data['prompt_id']);
		expect(starts).toEqual([a, b]);
		const aEnd = socket.received.findIndex(
			(r) => r.kind === 'json' && r.message.type === 'execution_success' && r.message.data['prompt_id'] === a
		);
		const bStart = socket.received.findIndex(
			(r) => r.kind === 'json' && r.message.type === 'execution_start' && r.message.data['prompt_id'] === b
		);
		expect(aEnd).toBeLessThan(bStart);
		socket.close();
	});

	it('runs two jobs at once in two-concurrent-jobs, with unattributed type-1 previews interleaved', async () => {
		await control(bed.emu, '/scenario', { name: 'two-concurrent-jobs' });
		await control(bed.emu, '/workflow/timing', { stepMs: 15 });
		const socket = await RecordingSocket.open(bed.emu);
		const a = (await api(bed.emu).submit(small({ '3': { steps: 8, seed: 1 } }))).body['prompt_id'] as string;
		const b = (await api(bed.emu).submit(small({ '3': { steps: 8, seed: 2 } }))).body['prompt_id'] as string;
		await socket.untilDone(a);
		await socket.untilDone(b);
		const progressOwners = socket.json('progress').map((m) => m.data['prompt_id']);
		const firstB = progressOwners.indexOf(b);
		const lastA = progressOwners.lastIndexOf(a);
		expect(firstB).toBeLessThan(lastA);
		const frames = socket.binary();
		expect(frames).toHaveLength(16);
		expect(frames.every((f) => f.frame?.kind === 'preview')).toBe(true);
		socket.close();
	});

	it('interleaves TEXT frames of a partner job with previews of a sampler job, neither carrying a job id', async () => {
		await control(bed.emu, '/scenario', { name: 'two-concurrent-jobs' });
		await control(bed.emu, '/workflow/timing', { stepMs: 15 });
		const socket = await RecordingSocket.open(bed.emu);
		const sampler = (await api(bed.emu).submit(small({ '3': { steps: 12, seed: 3 } }))).body['prompt_id'] as string;
		const partnerJob = (await api(bed.emu).submit(partner, { extra_data: { api_key_service_org: bed.emu.apiKey } })).body[
			'prompt_id'
		] as string;
		await socket.untilDone(sampler);
		await socket.untilDone(partnerJob);
		const kinds = socket.binary().map((b) => b.frame?.kind);
		const firstText = kinds.indexOf('text');
		expect(firstText).toBeGreaterThanOrEqual(0);
		expect(kinds.lastIndexOf('preview')).toBeGreaterThan(firstText);
		socket.close();
	});

	it('interrupts between sampler steps and reports cancelled', async () => {
		await control(bed.emu, '/workflow/timing', { stepMs: 20 });
		const socket = await RecordingSocket.open(bed.emu);
		const id = (await api(bed.emu).submit(small({ '3': { steps: 200 } }))).body['prompt_id'] as string;
		await socket.until(() => socket.json('progress', id).length >= 2);
		expect((await api(bed.emu).post('/api/interrupt', { prompt_id: 'someone-else' })).status).toBe(200);
		await socket.until(() => socket.json('progress', id).length >= 3);
		expect((await api(bed.emu).post('/api/interrupt', '')).status).toBe(200);
		const done = await socket.untilDone(id);
		expect(done.find((m) => m.type === 'execution_interrupted')!.data).toMatchObject({
			prompt_id: id,
			node_id: '3',
			node_type: 'KSampler'
		});
		expect(socket.json('progress', id).length).toBeLessThan(200);
		expect(await statusOf(id)).toBe('cancelled');
		const history = (await (await api(bed.emu).get(`/api/history/${id}`)).json()) as Record<string, { status: { status_str: string } }>;
		expect(history[id]!.status.status_str).toBe('cancelled');
		socket.close();
	});

	it('deletes a pending job and cancels a running one through POST /queue', async () => {
		await control(bed.emu, '/workflow/timing', { stepMs: 20 });
		const socket = await RecordingSocket.open(bed.emu);
		const a = (await api(bed.emu).submit(small({ '3': { steps: 200, seed: 1 } }))).body['prompt_id'] as string;
		const b = (await api(bed.emu).submit(small({ '3': { steps: 200, seed: 2 } }))).body['prompt_id'] as string;
		await socket.until(() => socket.json('progress', a).length >= 1);
		expect((await api(bed.emu).post('/api/queue', { delete: [b] })).status).toBe(200);
		expect(await statusOf(b)).toBe('cancelled');
		expect((await api(bed.emu).post('/api/queue', { delete: [a] })).status).toBe(200);
		await socket.untilDone(a);
		expect(await statusOf(a)).toBe('cancelled');
		expect(socket.json('execution_start', b)).toHaveLength(0);
		expect((await api(bed.emu).post('/api/queue', { delete: 'x' })).status).toBe(400);
		expect((await api(bed.emu).post('/api/queue', '{oops')).status).toBe(400);
		socket.close();
	});
});

describe('end-of-run variants', () => {
	const ending = async (scenario: string) => {
		await control(bed.emu, '/scenario', { name: scenario });
		const socket = await RecordingSocket.open(bed.emu);
		const id = (await api(bed.emu).submit(small({ '3': { steps: 1 } }))).body['prompt_id'] as string;
		const done = await socket.untilDone(id);
		socket.close();
		return done.slice(-2).map((m) => (m.type === 'executing' ? `executing:${JSON.stringify(m.data['node'])}` : m.type));
	};
	it('default: terminal event, then executing null', async () => {
		expect(await ending('default')).toEqual(['execution_success', 'executing:null']);
	});
	it('end-empty-node: terminal event, then executing with an empty node', async () => {
		expect(await ending('end-empty-node')).toEqual(['execution_success', 'executing:""']);
	});
	it('end-executing-first: executing null before the terminal event', async () => {
		expect(await ending('end-executing-first')).toEqual(['executing:null', 'execution_success']);
	});
	it('end-empty-node-first: executing with an empty node, then the terminal event last (the spec read literally)', async () => {
		expect(await ending('end-empty-node-first')).toEqual(['executing:""', 'execution_success']);
	});
});

describe('execution errors, every exception_type of the spec', () => {
	const failure = async (
		prompt: ApiPrompt,
		extra: Record<string, unknown> = {},
		before?: (id: string, socket: RecordingSocket) => Promise<void>
	) => {
		const socket = await RecordingSocket.open(bed.emu);
		const res = await api(bed.emu).submit(prompt, extra);
		expect(res.status).toBe(200);
		const id = res.body['prompt_id'] as string;
		if (before) await before(id, socket);
		const done = await socket.untilDone(id);
		socket.close();
		expect(await statusOf(id)).toBe('failed');
		return done.find((m) => m.type === 'execution_error')!.data;
	};

	it('OOMError for a latent too large for the GPU', async () => {
		expect(await failure(small({ '5': { width: 8192, height: 8192, batch_size: 1 } }))).toMatchObject({
			exception_type: 'OOMError',
			node_id: '3',
			node_type: 'KSampler',
			traceback: expect.any(Array),
			executed: expect.arrayContaining(['4', '5'])
		});
	});

	it('ModelDownloadError in models-unavailable', async () => {
		await control(bed.emu, '/scenario', { name: 'models-unavailable' });
		expect(await failure(small())).toMatchObject({ exception_type: 'ModelDownloadError', node_id: '4' });
	});

	it('ImageDownloadError for an image URL that cannot be downloaded', async () => {
		const prompt: ApiPrompt = {
			'1': { class_type: 'LoadImage', inputs: { image: 'https://images.example.invalid/cat.png' } },
			'2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'x' } }
		};
		const error = await failure(prompt);
		expect(error).toMatchObject({ exception_type: 'ImageDownloadError', node_id: '1', node_type: 'LoadImage' });
		expect(String(error['exception_message'])).not.toContain('cat.png?');
	});

	it('ValidationError for an uploaded file that is not an image', async () => {
		const up = await api(bed.emu).upload('/api/upload/image', 'notes.png', new TextEncoder().encode('not a picture'));
		expect(up.status).toBe(200);
		const prompt: ApiPrompt = {
			'1': { class_type: 'LoadImage', inputs: { image: 'notes.png' } },
			'2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'x' } }
		};
		expect(await failure(prompt)).toMatchObject({ exception_type: 'ValidationError', node_id: '1' });
	});

	it('InsufficientFundsError when credits run out while a partner job waits or runs', async () => {
		await control(bed.emu, '/workflow/timing', { stepMs: 30 });
		const error = await failure(partner, { extra_data: { api_key_service_org: bed.emu.apiKey } }, async () => {
			await control(bed.emu, '/scenario', { name: 'no-credits' });
		});
		expect(error).toMatchObject({ exception_type: 'InsufficientFundsError', node_type: expect.stringMatching(/^Stability/) });
	});

	it('InactiveSubscriptionError for a queued job that starts after the subscription lapsed', async () => {
		await control(bed.emu, '/workflow/timing', { stepMs: 20 });
		const socket = await RecordingSocket.open(bed.emu);
		const first = (await api(bed.emu).submit(small({ '3': { steps: 10 } }))).body['prompt_id'] as string;
		const queued = (await api(bed.emu).submit(small({ '3': { steps: 10, seed: 5 } }))).body['prompt_id'] as string;
		await control(bed.emu, '/scenario', { name: 'inactive-subscription' });
		await socket.untilDone(first);
		const done = await socket.untilDone(queued);
		expect(done.find((m) => m.type === 'execution_error')!.data).toMatchObject({
			exception_type: 'InactiveSubscriptionError',
			node_id: null
		});
		socket.close();
	});
});
