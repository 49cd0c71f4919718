import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import { newWorkflowRun, type WorkflowRun } from '$lib/workflows/rules/run-record';
import { bridge, countObjectUrls } from '../../core/state/testing/fake-bridge';
import { QUEUE_POLL_MS, RunPageStore } from './run-page.svelte';

vi.mock('$lib/core/state/worker-bridge.svelte', () => import('../../core/state/testing/fake-bridge'));

function queuedRun(id: string, promptId: string): WorkflowRun {
	const run = newWorkflowRun({ id, profileId: 'p', title: 'Portrait', workflowId: 'wf', prompt: {}, seeds: {}, partner: false, now: 1 });
	return { ...run, status: 'queued', promptId };
}

const preview = (runId: string | null) => ({ type: 'preview', runId, nodeId: '9', mime: 'image/jpeg', bytes: new ArrayBuffer(4) }) as const;

/** Lets awaited answers of the fake bridge arrive and effects run. */
async function settle(): Promise<void> {
	await vi.advanceTimersByTimeAsync(0);
	flushSync();
	await vi.advanceTimersByTimeAsync(0);
}

describe('the run page store', () => {
	let urls: ReturnType<typeof countObjectUrls>;

	beforeEach(() => {
		vi.useFakeTimers();
		bridge.reset();
		urls = countObjectUrls(vi);
		bridge.answer('getRun', ({ id }) => queuedRun(id, 'job-1'));
		bridge.answer('timeline', () => []);
		bridge.answer('queue', () => ({ ok: true, value: { running: [{ promptId: 'other' }], pending: [{ promptId: 'job-1' }] } }));
		bridge.answer('output', () => ({ ok: true, value: new Blob(['png']) }));
	});

	afterEach(() => {
		vi.useRealTimers();
		vi.restoreAllMocks();
	});

	it('reads the queue position as soon as the run is known to wait, then every few seconds', async () => {
		const store = new RunPageStore();
		store.open('r1');
		await settle();
		expect(store.run?.status).toBe('queued');
		expect(store.position).toBe(1);
		const asked = bridge.callsOf('queue').length;
		await vi.advanceTimersByTimeAsync(QUEUE_POLL_MS * 2);
		expect(bridge.callsOf('queue').length).toBe(asked + 2);
		store.dispose();
	});

	it('estimates the wait from recent runs of the same workflow', async () => {
		bridge.answer('timeline', () => [
			{ id: 'earlier', kind: 'workflow', subject: 'wf', status: 'succeeded', durationMs: 20_000, createdAt: 0, title: 'Portrait' }
		]);
		const store = new RunPageStore();
		store.open('r1');
		await settle();
		// One job ahead: this run is done after two runs of about 20 s.
		expect(store.eta).toBe(40_000);
		store.dispose();
	});

	it('releases its listeners, timers and object URLs when the page is left mid-run', async () => {
		const before = bridge.listeners.size;
		const store = new RunPageStore();
		store.open('r1');
		await settle();
		expect(bridge.listeners.size).toBeGreaterThan(before);

		for (let i = 0; i < 5; i++) bridge.emit(preview('r1'));
		bridge.emit(preview(null));
		bridge.emit({ type: 'run', run: { ...queuedRun('r1', 'job-1'), status: 'running' } });
		await store.runs.outputUrl('r1', 0);
		expect(store.preview?.url).toMatch(/^blob:/);
		expect(urls.made()).toBe(7);

		// An output still being read when the page goes must not leave a URL behind.
		let deliver: (value: unknown) => void = () => {};
		bridge.answer('output', () => new Promise((resolve) => (deliver = resolve)));
		const late = store.runs.outputUrl('r1', 1);
		await settle();

		store.dispose();
		deliver({ ok: true, value: new Blob(['late']) });
		await late;
		await settle();

		// Unsubscribed: the page-wide stores (the timeline) keep their one listener, this page none.
		bridge.emit(preview('r1'));
		bridge.emit({ type: 'run', run: queuedRun('r1', 'job-1') });
		expect(urls.live).toEqual(new Set());
		expect(urls.made()).toBe(7);
		const polls = bridge.callsOf('queue').length;
		await vi.advanceTimersByTimeAsync(QUEUE_POLL_MS * 3);
		expect(bridge.callsOf('queue').length).toBe(polls);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('leaves the listeners as they were after many visits', async () => {
		const first = new RunPageStore();
		first.open('r1');
		await settle();
		first.dispose();
		const settled = bridge.listeners.size;
		for (let i = 0; i < 20; i++) {
			const store = new RunPageStore();
			store.open('r1');
			await settle();
			store.dispose();
		}
		expect(bridge.listeners.size).toBe(settled);
	});
});
