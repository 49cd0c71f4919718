import { describe, expect, it, vi } from 'vitest';
import { newWorkflowRun } from '../rules/run-record';
import type { ServerEvent } from '../protocol/workflow-events';
import type { WorkerEvent } from '../../core/protocol/worker-api';
import type { SocketMessage, WorkflowContext } from './socket-message';
import { MemoryStore } from '../../core/worker/kv-store';
import { RunTracker } from './run-tracker';
import { RunsRepo } from './runs-repo';
import type { Surfaces } from './surfaces';
import type { JobReading } from './surfaces/surface';
import { V2Surface } from './surfaces/v2-surface';

interface TrackerOptions {
	/** The surface every profile reads jobs through; none means the server cannot be reached. */
	surface?: unknown;
	now?: () => number;
	/** What the worker context says of the socket (a local server's socket is open). */
	socketOpen?: () => boolean;
	/** Whether the tracker has started (listening to the socket) before the test acts; true unless said. */
	started?: boolean;
}

/**
 * A tracker started and stopped at once (listening, no timers running) over an in-memory store: `send` plays the
 * profile socket's events, `emitted` collects what it tells the page, `restarted` the profiles whose
 * server it found restarted.
 */
function trackerOver(options: TrackerOptions = {}) {
	const kv = new MemoryStore();
	const emitted: WorkerEvent[] = [];
	const finished: string[] = [];
	const restarted: string[] = [];
	let socket: (m: SocketMessage) => void = () => {};
	const ctx = {
		kv,
		isLeader: () => true,
		emit: (e: WorkerEvent) => emitted.push(e),
		onSocketMessage: (l: (m: SocketMessage) => void) => ((socket = l), () => {}),
		onTabTopic: () => {},
		connection: async () => ({ ok: false, error: { kind: 'network', message: 'offline in this test' } }),
		...(options.socketOpen ? { socketOpen: options.socketOpen } : {})
	} as unknown as WorkflowContext;
	const surfaces = options.surface
		? ({
				for: async () => ({ ok: true, value: options.surface }),
				serverRestarted: (id: string) => restarted.push(id)
			} as unknown as Surfaces)
		: undefined;
	const runs = new RunsRepo(kv);
	const tracker = new RunTracker(ctx, runs, { finished: (r) => finished.push(r.id) }, options.now, surfaces);
	if (options.started !== false) {
		tracker.start();
		tracker.stop();
	}
	const send = (event: ServerEvent) => socket({ kind: 'event', profileId: 'p', event });
	return { tracker, send, emitted, finished, restarted, runs, kv };
}

const run = () => ({
	...newWorkflowRun({
		id: 'r1',
		profileId: 'p',
		title: 'T',
		workflowId: null,
		prompt: { '3': { class_type: 'KSampler', inputs: {} } },
		seeds: {},
		partner: false,
		now: 1
	}),
	promptId: 'p1'
});

describe('the run tracker', () => {
	it('keeps progress that arrived before the submit answer', () => {
		const { tracker, send } = trackerOver();
		tracker.track(run());
		send({ type: 'execution_start', promptId: 'p1' });
		send({ type: 'executing', promptId: 'p1', node: '3' });
		send({ type: 'progress', promptId: 'p1', node: '3', value: 4, max: 20 });
		const accepted = tracker.accepted(run(), 'p1');
		expect(accepted.status).toBe('running');
		expect(accepted.progress.current).toBe('3');
		expect(accepted.progress.step).toEqual({ node: '3', value: 4, max: 20 });
		expect(accepted.queuedAt).toBeDefined();
	});

	it('keeps the end of a run whose events all came before the submit answer (a fast job, a slow answer)', () => {
		const { tracker, send, emitted } = trackerOver();
		tracker.track(run());
		send({ type: 'execution_start', promptId: 'p1' });
		send({ type: 'execution_success', promptId: 'p1' });
		expect(tracker.accepted(run(), 'p1').status).toBe('succeeded');
		expect(tracker.newest('r1')?.status).toBe('succeeded');
		const told = emitted.flatMap((e) => (e.type === 'run' ? [e.run.status] : []));
		expect(told.at(-1)).toBe('succeeded');
	});

	it('replays events for a prompt id it learns only from the answer', () => {
		const { tracker, send } = trackerOver();
		send({ type: 'execution_start', promptId: 'server-id' });
		send({ type: 'executing', promptId: 'server-id', node: '3' });
		const accepted = tracker.accepted({ ...run(), promptId: 'server-id' }, 'server-id');
		expect(accepted.status).toBe('running');
		expect(accepted.progress.current).toBe('3');
	});

	it('attributes events without a prompt id to the only running run, and finishes once', async () => {
		const { tracker, send, finished, runs } = trackerOver();
		tracker.track(run());
		send({ type: 'execution_start', promptId: 'p1' });
		send({ type: 'progress', promptId: undefined, node: '3', value: 2, max: 20 });
		send({ type: 'execution_success', promptId: 'p1' });
		send({ type: 'execution_success', promptId: 'p1' });
		expect(finished).toEqual(['r1']);
		expect((await runs.get('r1'))?.status).toBe('succeeded');
	});
});

describe('a job the server no longer knows', () => {
	/** A tracker whose server reads every job as `reading`, at the time `clock.t`. */
	function onServer(reading: JobReading) {
		const clock = { t: 0 };
		const surface = { read: async () => ({ ok: true, value: reading }) };
		const { tracker, kv, restarted, send } = trackerOver({ surface, now: () => clock.t });
		const greet = () => send({ type: 'status', queueRemaining: 0, sid: 's' });
		return { tracker, clock, kv, restarted, greet };
	}

	it.each([
		['ran, then vanished: the server restarted', { startedAt: 5, status: 'running' as const }, /restarted while this ran/],
		['waited, then vanished from the queue', { queuedAt: 5, status: 'queued' as const }, /left the server’s queue/],
		['never answered, and the server has no such job', { status: 'submitting' as const }, /never accepted/]
	])('a run that %s is lost with the reason, never cancelled', async (_, state, reason) => {
		const { tracker, clock, kv } = onServer({ kind: 'vanished' });
		tracker.track({ ...run(), ...state });
		clock.t = 60_000;
		await tracker.pollAll();
		const stored = await new RunsRepo(kv).get('r1');
		expect(stored).toMatchObject({ status: 'lost', error: { kind: 'lost', message: expect.stringMatching(reason) } });
	});

	it('a waiting run gone from the queue while this app asks the server to cancel it is Cancelled, not Lost', async () => {
		const { tracker, clock, kv } = onServer({ kind: 'vanished' });
		tracker.track({ ...run(), queuedAt: 5, status: 'queued' });
		const asking = tracker.cancelling(['p1']);
		clock.t = 60_000;
		await tracker.pollAll();
		asking.done();
		expect(await new RunsRepo(kv).get('r1')).toMatchObject({ status: 'cancelled' });
	});

	it('once the cancel is over, a job that vanishes is lost again: only a cancel under way explains it', async () => {
		const { tracker, clock, kv } = onServer({ kind: 'vanished' });
		tracker.track({ ...run(), queuedAt: 5, status: 'queued' });
		tracker.cancelling(['p1']).done();
		clock.t = 60_000;
		await tracker.pollAll();
		expect(await new RunsRepo(kv).get('r1')).toMatchObject({ status: 'lost' });
	});

	it('probes the server again when its socket greets us a second time (a reconnect)', () => {
		const { greet, restarted } = onServer({ kind: 'waiting', running: false });
		greet();
		expect(restarted).toEqual([]);
		greet();
		expect(restarted).toEqual(['p']);
	});
});

describe('a job the service names itself (v2)', () => {
	it('is read at once under the name from the answer, not at the next poll', async () => {
		const asked: string[] = [];
		const surface = {
			read: async (job: { promptId: string }) => {
				asked.push(job.promptId);
				return { ok: true, value: { kind: 'waiting', running: false } };
			}
		};
		const { tracker } = trackerOver({ surface, now: () => 0, started: false });
		tracker.track(run());
		tracker.accepted(run(), 'job_from_the_service');
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(asked).toEqual(['job_from_the_service']);

		// A service that keeps our id (v1, ComfyUI) is not asked again: its next poll will do.
		tracker.accepted({ ...run(), promptId: 'job_from_the_service' }, 'job_from_the_service');
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(asked).toEqual(['job_from_the_service']);
	});
});

describe('a job started elsewhere on the managed v2 service', () => {
	const links = { self: '/api/v2/jobs/job_x', events: '/api/v2/jobs/job_x/events', cancel: '/api/v2/jobs/job_x/cancel' };

	/** The account's socket tells of job `job_x`; the v2 surface lists no jobs, and reads it with `status`. */
	async function heardOnSocket(status: string) {
		const read: string[] = [];
		const surface = Object.assign(Object.create(V2Surface.prototype) as V2Surface, {
			kind: 'v2',
			liveEvents: 'job-stream',
			activeJobs: async () => ({ ok: true, value: [] }),
			readJob: async (job: { promptId: string }) => (read.push(job.promptId), { ok: true, value: { id: 'job_x', status, urls: links } }),
			read: async () => ({ ok: true, value: { kind: 'status', state: 'in_progress', history: null } }),
			stream: () => new Promise(() => {})
		});
		const { send, runs } = trackerOver({ surface, now: () => 0 });
		send({ type: 'executing', promptId: 'job_x', node: '3' });
		await expect.poll(() => read, { timeout: 5000 }).toEqual(['job_x']);
		return runs;
	}

	it('is read by its id (the service lists none) and, still running, followed by its links as a run started elsewhere', async () => {
		const runs = await heardOnSocket('running');
		await expect.poll(async () => (await runs.byPromptId('job_x'))?.elsewhere, { timeout: 5000 }).toBe(true);
		// Followed by its own links: the socket's v1 file names are not its outputs.
		expect((await runs.byPromptId('job_x'))?.jobLinks).toEqual(links);
	});

	it('is left alone when the read says it already ended (a straggling event)', async () => {
		const runs = await heardOnSocket('succeeded');
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(await runs.byPromptId('job_x')).toBeUndefined();
	});
});

describe('a run read while it goes on (a page opened mid-run reads it once, then follows events)', () => {
	const start: ServerEvent[] = [
		{ type: 'execution_start', promptId: 'p1' },
		{ type: 'executing', promptId: 'p1', node: '3' }
	];
	const steps = (to: number): ServerEvent[] =>
		Array.from({ length: to }, (_, i) => ({ type: 'progress', promptId: 'p1', node: '3', value: i + 1, max: 20 }) as ServerEvent);
	it.each([
		{ burst: 'a few sampler steps', events: [...start, ...steps(3)], current: '3', step: 3 },
		{
			burst: 'every step, then the decoder starting',
			events: [...start, ...steps(20), { type: 'executing', promptId: 'p1', node: '8' }],
			current: '8',
			step: 20
		}
	] as Array<{ burst: string; events: ServerEvent[]; current: string; step: number }>)(
		'after $burst it is the newest state, although storage still holds an older one',
		async ({ events, current, step }) => {
			const { tracker, send, runs } = trackerOver();
			tracker.track(run());
			for (const event of events) send(event);
			expect(tracker.newest('r1')?.progress.current).toBe(current);
			expect(tracker.newest('r1')?.progress.step?.value).toBe(step);
			// Written once a second at most: this is why the page must not read the stored copy.
			expect((await runs.get('r1'))?.progress.step?.value).not.toBe(step);
		}
	);

	it('is known as it ended until it is deleted: its final write may still be on its way to storage', () => {
		const { tracker, send } = trackerOver();
		tracker.track(run());
		send({ type: 'execution_start', promptId: 'p1' });
		send({ type: 'execution_success', promptId: 'p1' });
		expect(tracker.newest('r1')?.status).toBe('succeeded');
		tracker.forget('r1', 'p1');
		expect(tracker.newest('r1')).toBeUndefined();
	});
});

describe('a read that was on its way when the run ended (a slow server under load)', () => {
	/** A tracker over one local job whose reads the test answers; `send` plays the socket's events. */
	function lateReads(read: () => Promise<unknown>) {
		const { kv, emitted, tracker, send } = trackerOver({ surface: { read } });
		tracker.track(run());
		return { kv, emitted, tracker, send };
	}

	it('does not bring the ended run back to an older step', async () => {
		const asked: Array<(r: unknown) => void> = [];
		const { kv, emitted, tracker, send } = lateReads(() => new Promise((resolve) => asked.push(resolve)));
		send({ type: 'execution_start', promptId: 'p1' });
		send({ type: 'executing', promptId: 'p1', node: '3' });
		send({ type: 'progress', promptId: 'p1', node: '3', value: 3, max: 4 });
		// The poll asks now, while the sampler is at step 3; the server answers only after the run ended.
		const polled = tracker.pollAll();
		await vi.waitFor(() => expect(asked).toHaveLength(1));
		send({ type: 'progress', promptId: 'p1', node: '3', value: 4, max: 4 });
		send({ type: 'executing', promptId: 'p1', node: null });
		send({ type: 'execution_success', promptId: 'p1' });
		asked[0]!({ ok: true, value: { kind: 'status', state: 'in_progress', history: null } });
		await polled;
		await new Promise((resolve) => setTimeout(resolve, 100));
		const told = emitted.flatMap((e) => (e.type === 'run' ? [e.run] : []));
		expect(told.at(-1)?.status).toBe('succeeded');
		expect(tracker.newest('r1')?.status).toBe('succeeded');
		expect((await new RunsRepo(kv).get('r1'))?.status).toBe('succeeded');
	});

	it('keeps an interrupted run interrupted: the late read would have reopened it, and the next one read it as cancelled', async () => {
		// The first read waits for the test; any later one reads the job as a 0.3.64-style server does an interrupted one.
		const asked: Array<(r: unknown) => void> = [];
		const cancelled = { ok: true, value: { kind: 'status', state: 'cancelled', history: null } };
		const { tracker, send } = lateReads(() =>
			asked.length === 0 ? new Promise((resolve) => asked.push(resolve)) : Promise.resolve(cancelled)
		);
		send({ type: 'execution_start', promptId: 'p1' });
		send({ type: 'executing', promptId: 'p1', node: '3' });
		const polled = tracker.pollAll();
		await vi.waitFor(() => expect(asked).toHaveLength(1));
		send({ type: 'execution_interrupted', promptId: 'p1', nodeId: '3', nodeType: 'KSampler' });
		asked[0]!({ ok: true, value: { kind: 'status', state: 'in_progress', history: null } });
		await polled;
		// Had the run been reopened, this read would end it as cancelled.
		await tracker.pollAll();
		expect(tracker.newest('r1')?.status).toBe('interrupted');
	});
});

describe('a job another client runs on a local ComfyUI (its events go to that client only)', () => {
	it('is read again as soon as the server says its queue changed, not a live-queue period later', async () => {
		let clock = 100_000;
		let queueReads = 0;
		const surface = {
			kind: 'local-comfyui',
			liveEvents: 'profile-socket',
			activeJobs: async () => (queueReads++, { ok: true, value: [{ promptId: 'p1', position: 0, running: true }] }),
			read: async () => ({ ok: true, value: { kind: 'waiting', running: false } })
		};
		const { tracker, send } = trackerOver({ surface, now: () => clock, socketOpen: () => true });
		tracker.track({ ...run(), status: 'running', elsewhere: true });
		await tracker.tick();
		expect(queueReads).toBe(1);
		clock += 2000;
		await tracker.tick();
		expect(queueReads, 'within the live-queue period, the queue is not read again').toBe(1);
		send({ type: 'status', queueRemaining: 0, sid: undefined });
		clock += 2000;
		await tracker.tick();
		expect(queueReads, 'the queue changed: read at the next tick').toBe(2);
	});
});
