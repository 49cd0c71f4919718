/**
 * The self-hosted proxy in front of a real ComfyUI 0.3.64 (`{upstream: '0.3.64'}`): the behaviours
 * the spec page's last subsection observed, one test each, quoting it. Without the setting the proxy
 * behaves as documented (self-hosted.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { api, control } from '../test-support';
import { useWorkflowEmulator } from '../use-workflow-emulator';
import { v2Client, type SseEvent } from './test-client';
import { smallJob } from './fixtures';
import { pollJob, stepMs, terminal, type JobBody } from './helpers.test-util';
import { proxy064Progress } from './jobs';

const bed = useWorkflowEmulator();
const proxy = () => v2Client(bed.emu, 'self-hosted');
type Err = { error: { code: string; details: Record<string, unknown> | null } };
const upstream064 = () => control(bed.emu, '/v2/self-hosted', { upstream: '0.3.64' });
const statuses = (events: SseEvent[]) => events.filter((e) => e.event === 'status').map((e) => e.data);

/** Holds the single local runner with a long job, so the next one waits in the queue. */
async function busyRunner(): Promise<JobBody> {
	await stepMs(bed.emu, 20);
	const { body } = await proxy().submit<JobBody>(smallJob(40, 99));
	return pollJob(proxy(), body, (j) => j.status === 'running');
}

describe('self-hosted proxy in front of ComfyUI 0.3.64', () => {
	it('is a setting of the proxy: null by default, "0.3.64" on request, anything else refused', async () => {
		const state = async () =>
			((await (await fetch(`${bed.emu.urls.selfHosted}/__emulator/v2/state`)).json()) as { selfHosted: { upstream: unknown } }).selfHosted;
		expect((await state()).upstream).toBeNull();
		await upstream064();
		expect((await state()).upstream).toBe('0.3.64');
		await expect(control(bed.emu, '/v2/self-hosted', { upstream: '0.3.65' })).rejects.toThrow(/400/);
		await control(bed.emu, '/reset', {});
		expect((await state()).upstream).toBeNull();
	});

	it('"The stream sends `status` on connect and at the end only: a stream opened while queued goes from `queued` straight to the terminal status, with no `running` and no `queue_position` updates; poll `GET /jobs/{id}` for those."', async () => {
		await control(bed.emu, '/scenario', { name: 'comfyui-local' });
		await upstream064();
		const first = await busyRunner();
		const { body } = await proxy().submit<JobBody>(smallJob(3, 7));
		const reading = proxy().events(body.urls.events, { timeoutMs: 20_000 });
		const running = await pollJob(proxy(), body, (j) => j.status === 'running', 20_000);
		expect(running.status).toBe('running');
		const read = await reading;
		expect(statuses(read.events)).toEqual([{ status: 'queued', queue_position: 0 }, { status: 'succeeded' }]);
		expect(read.ended).toBe('closed');
		await pollJob(proxy(), first, terminal, 20_000);
	});

	it('"Progress snapshots read `value: 1.0` with `nodes_done` = `nodes_total` = N, N growing node by node"', async () => {
		await upstream064();
		// A frame right after a node finished (no current node) reads value 1 with done = total; which frames pass the
		// proxy's drop-only throttle depends on timing (on the real pair, with 2-6 s nodes, nearly all are such frames).
		await stepMs(bed.emu, 300);
		const { body } = await proxy().submit<JobBody>(smallJob(3));
		const read = await proxy().events(body.urls.events, { timeoutMs: 30_000 });
		const snapshots = read.events.filter((e) => e.event === 'progress').map((e) => e.data);
		const counts = snapshots.filter((p) => p['current_node'] === null).map((p) => p['nodes_done'] as number);
		for (const p of snapshots.filter((p) => p['current_node'] === null)) {
			expect(p['value']).toBe(1);
			expect(p['nodes_done']).toBe(p['nodes_total']);
		}
		expect(counts).toEqual([...counts].sort((a, b) => a - b));
		// During the sampler, the snapshot that passes names it with its steps; never more than two a second.
		expect(snapshots.some((p) => typeof p['current_node'] === 'string' && typeof p['steps'] === 'number')).toBe(true);
	});

	it('the proxy’s throttle drops frames rather than delaying them: never two progress frames within 500 ms', () => {
		expect(proxy064Progress({ a: { state: 'finished', value: 1, max: 1 }, b: { state: 'pending' } })).toEqual({
			value: 1,
			nodes_done: 1,
			nodes_total: 1,
			current_node: null,
			step: null,
			steps: null
		});
		expect(
			proxy064Progress({ a: { state: 'finished', value: 1, max: 1 }, b: { state: 'running', value: 5, max: 20, node_id: 'b' } })
		).toEqual({ value: 0.625, nodes_done: 1, nodes_total: 2, current_node: 'b', step: 5, steps: 20 });
	});

	it('"One stream per job at a time: a second stream of the same job starves the first": keep-alives only, and the end read at a keep-alive check', async () => {
		await control(bed.emu, '/v2/self-hosted', { upstream: '0.3.64', keepaliveMs: 300 });
		await stepMs(bed.emu, 100);
		const { body } = await proxy().submit<JobBody>(smallJob(10));
		let firstSeen = () => {};
		const seen = new Promise<void>((r) => (firstSeen = r));
		const first = proxy().events(body.urls.events, { timeoutMs: 20_000, onEvent: () => firstSeen() });
		await seen;
		const second = await proxy().events(body.urls.events, { timeoutMs: 20_000 });
		const starved = await first;
		const ended = (read: typeof starved) => read.events.find((e) => e.event === 'status' && e.data['status'] === 'succeeded')!.at;
		expect(statuses(second.events).at(-1)).toEqual({ status: 'succeeded' });
		// The starved stream: no progress after the second opened, keep-alives, and the end learned late.
		expect(starved.comments).toContain('keepalive');
		expect(ended(starved)).toBeGreaterThan(ended(second));
		expect(starved.ended).toBe('closed');
	});

	it('when the replaced stream closes, ComfyUI unregisters the job’s socket and the newer stream starves too (seen on the real pair)', async () => {
		await control(bed.emu, '/v2/self-hosted', { upstream: '0.3.64', keepaliveMs: 300 });
		await stepMs(bed.emu, 150);
		const { body } = await proxy().submit<JobBody>(smallJob(12, 5));
		const first = proxy().events(body.urls.events, { timeoutMs: 20_000, until: (events) => events.length >= 1 });
		await first;
		// The first reader has gone (a page reload) but is still open on the server until a write finds it gone.
		const second = await proxy().events(body.urls.events, { timeoutMs: 20_000 });
		const progressAfterOpen = second.events.slice(2).filter((e) => e.event === 'progress');
		expect(progressAfterOpen).toEqual([]);
		expect(second.comments).toContain('keepalive');
		expect(statuses(second.events).at(-1)).toEqual({ status: 'succeeded' });
	});

	it('"the proxy answers `canceling` and the job runs on to `succeeded`"', async () => {
		await upstream064();
		await stepMs(bed.emu, 30);
		const { body } = await proxy().submit<JobBody>(smallJob(20));
		await pollJob(proxy(), body, (j) => j.status === 'running');
		expect((await proxy().post<JobBody>(body.urls.cancel, {})).body.status).toBe('canceling');
		// Only the answer says so: read back, the job is `running` again (as on the real pair).
		expect((await proxy().get<JobBody>(body.urls.self)).body.status).toBe('running');
		const done = await pollJob(proxy(), body, terminal, 20_000);
		expect(done.status).toBe('succeeded');
		expect(done.outputs).toHaveLength(1);
	});

	it('an interrupt sent to the ComfyUI behind the proxy stops the job, and the proxy reads it `canceled` (seen on the real pair)', async () => {
		await control(bed.emu, '/scenario', { name: 'comfyui-local' });
		await upstream064();
		await stepMs(bed.emu, 30);
		const { body } = await proxy().submit<JobBody>(smallJob(40, 11));
		await pollJob(proxy(), body, (j) => j.status === 'running');
		expect((await api(bed.emu).post('/api/interrupt', { prompt_id: body.id })).status).toBe(200);
		expect((await pollJob(proxy(), body, terminal, 20_000)).status).toBe('canceled');
	});

	it('"cancelling a queued job answers `queued` and the job runs later"', async () => {
		await control(bed.emu, '/scenario', { name: 'comfyui-local' });
		await upstream064();
		const first = await busyRunner();
		const { body } = await proxy().submit<JobBody>(smallJob(3, 8));
		expect((await proxy().post<JobBody>(body.urls.cancel, {})).body.status).toBe('queued');
		expect((await pollJob(proxy(), body, terminal, 20_000)).status).toBe('succeeded');
		await pollJob(proxy(), first, terminal, 20_000);
	});

	it.each(['comfyui-local', 'default'])('"A pending job deleted from ComfyUI\'s own queue shows as `expired`." (%s)', async (scenario) => {
		await control(bed.emu, '/scenario', { name: scenario });
		await upstream064();
		await busyRunner();
		const { body } = await proxy().submit<JobBody>(smallJob(3, 9));
		expect((await api(bed.emu).post('/api/queue', { delete: [body.id] })).status).toBe(200);
		expect((await proxy().get<JobBody>(body.urls.self)).body.status).toBe('expired');
		await control(bed.emu, '/v2/self-hosted', { upstream: null });
	});

	it('"`invalid_workflow` carries ComfyUI\'s own `node_errors` shape in `details`, not `[{field, reason}]`."', async () => {
		await upstream064();
		const workflow = smallJob();
		workflow['3']!.inputs['steps'] = 'many';
		const res = await proxy().submit<Err>(workflow);
		expect(res.status).toBe(422);
		expect(res.body.error.code).toBe('invalid_workflow');
		expect(res.body.error.details!['node_errors']).toMatchObject({
			'3': { errors: [expect.objectContaining({ type: expect.any(String), extra_info: expect.objectContaining({ input_name: 'steps' }) })] }
		});
	});

	it('"Runtime failures are `failed` with `code: node_execution_error` and `traceback: null`."', async () => {
		await upstream064();
		await control(bed.emu, '/scenario', { name: 'models-unavailable' });
		const done = await pollJob(proxy(), (await proxy().submit<JobBody>(smallJob())).body, terminal);
		expect(done.status).toBe('failed');
		expect(done['error']).toMatchObject({ code: 'node_execution_error', traceback: null });
	});

	it('"Temporary preview images (PreviewImage) appear as ordinary image outputs; text outputs are dropped."', async () => {
		await upstream064();
		const workflow = smallJob();
		workflow['20'] = { class_type: 'PreviewImage', inputs: { images: ['8', 0] } };
		workflow['21'] = { class_type: 'PreviewAny', inputs: { source: 'a caption' } };
		const done = await pollJob(proxy(), (await proxy().submit<JobBody>(workflow)).body, terminal);
		expect(done.status).toBe('succeeded');
		const byNode = Object.fromEntries(done.outputs.map((o) => [o['node_id'], o]));
		expect(byNode['20']).toMatchObject({ type: 'image', content_type: 'image/png' });
		expect(byNode['9']).toMatchObject({ type: 'image' });
		expect(done.outputs.filter((o) => o['type'] === 'text')).toEqual([]);
		expect(Object.keys(byNode).sort()).toEqual(['20', '9']);
	});
	it("types a saved video `image` with a video content type, as the real proxy did for SaveVideo's mp4 (observed, 0.3.64), where the contract says `video`", async () => {
		const video = {
			'1': { class_type: 'EmptyImage', inputs: { width: 64, height: 48, batch_size: 8, color: 16711680 } },
			'2': { class_type: 'CreateVideo', inputs: { images: ['1', 0], fps: 8 } },
			'3': { class_type: 'SaveVideo', inputs: { video: ['2', 0], filename_prefix: 'rb-poster', format: 'auto', codec: 'auto' } }
		};
		const typed = async (client: ReturnType<typeof proxy>) => {
			const { body } = await client.submit<JobBody>(video);
			const done = await pollJob(client, body, terminal, 20_000);
			return done.outputs.map((o) => [o['type'], o['content_type']]);
		};
		expect(await typed(proxy())).toEqual([['image', 'video/webm']]);
		expect(await typed(v2Client(bed.emu, 'managed'))).toEqual([['video', 'video/webm']]);
	});
});
