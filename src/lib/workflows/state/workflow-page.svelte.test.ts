import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import { newWorkflowRun, type WorkflowRun } from '$lib/workflows/rules/run-record';
import { bridge } from '../../core/state/testing/fake-bridge';
import { WorkflowPageStore } from './workflow-page.svelte';

vi.mock('$lib/core/state/worker-bridge.svelte', () => import('../../core/state/testing/fake-bridge'));

function finishedRun(id: string, createdAt: number): WorkflowRun {
	const run = newWorkflowRun({
		id,
		profileId: 'p',
		title: 'Portrait',
		workflowId: 'wf',
		prompt: {},
		seeds: {},
		partner: false,
		now: createdAt
	});
	return { ...run, status: 'succeeded' };
}

/** Lets awaited answers of the fake bridge arrive and effects run. */
async function settle(): Promise<void> {
	await vi.advanceTimersByTimeAsync(0);
	flushSync();
	await vi.advanceTimersByTimeAsync(0);
}

describe('the workflow page store', () => {
	beforeEach(() => {
		vi.useFakeTimers();
		bridge.reset();
		bridge.answer('getRun', ({ id }) => finishedRun(id, id === 'a' ? 1 : 2));
	});

	afterEach(() => {
		vi.useRealTimers();
		vi.restoreAllMocks();
	});

	it('shows a run picked in the history strip alone, in the live pane', async () => {
		const store = new WorkflowPageStore();
		store.show(['a']);
		await settle();
		expect(store.liveOpen).toBe(true);
		expect(store.shown.map((r) => r.id)).toEqual(['a']);
		store.dispose();
	});

	it('compares the picked runs, reading those it does not have yet', async () => {
		const store = new WorkflowPageStore();
		store.togglePick('a');
		store.togglePick('b');
		store.togglePick('b');
		store.togglePick('b');
		store.compare();
		await settle();
		expect(bridge.callsOf('getRun').map((c) => (c as { id: string }).id)).toEqual(['a', 'b']);
		expect(store.comparing).toBe(true);
		expect(store.compareItems.map((c) => c.id)).toEqual(['a', 'b']);
		store.dispose();
	});

	it('compares nothing until asked', async () => {
		const store = new WorkflowPageStore();
		store.togglePick('a');
		store.togglePick('b');
		await settle();
		expect(store.compareItems).toEqual([]);
		expect(bridge.callsOf('getRun')).toEqual([]);
		store.dispose();
	});

	it('releases the run listener it took when the page goes', async () => {
		const before = bridge.listeners.size;
		const store = new WorkflowPageStore();
		store.show(['a']);
		await settle();
		expect(bridge.listeners.size).toBeGreaterThan(before);
		store.dispose();
		expect(bridge.listeners.size).toBe(before);
	});
});
