import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import { newWorkflowRun, type WorkflowRun } from '$lib/workflows/rules/run-record';
import type { QueueEntry } from '$lib/workflows/protocol/api';
import { bridge } from '../../core/state/testing/fake-bridge';
import { profiles } from '$lib/core/state/profiles.svelte';
import { QueuePageStore } from './queue-page.svelte';

vi.mock('$lib/core/state/worker-bridge.svelte', () => import('../../core/state/testing/fake-bridge'));

function runningRun(status: WorkflowRun['status']): WorkflowRun {
	const run = newWorkflowRun({ id: 'r1', profileId: 'p', title: 'Chain', workflowId: 'wf', prompt: {}, seeds: {}, partner: false, now: 1 });
	return { ...run, status, promptId: 'job-1' };
}

const entry = { promptId: 'job-1', runId: 'r1' } as QueueEntry;

describe('the Queue page store', () => {
	beforeEach(() => {
		bridge.reset();
		profiles.activeId = 'p';
		bridge.answer('getRun', () => runningRun('running'));
		bridge.answer('queue', () => ({ ok: true, value: { running: [], pending: [] } }));
	});
	afterEach(() => {
		profiles.activeId = null;
	});

	it('says an interrupt under way, then, once the run ended interrupted, that the server stopped the job (as the run page does)', async () => {
		bridge.answer('stopJob', () => ({ ok: true, value: { kind: 'stopping', via: 'interrupt' } }));
		const store = new QueuePageStore();
		await store.stop(entry);
		await vi.waitFor(() => expect(bridge.callsOf('getRun')).toHaveLength(1));
		flushSync();
		expect(store.notice).toMatch(/^Sent an interrupt: the server stops the job when its current node ends/);
		bridge.emit({ type: 'run', run: runningRun('interrupted') });
		flushSync();
		expect(store.notice).toMatch(/^Interrupted: the server stopped the job \(an interrupt\)/);
		store.dispose();
	});

	it('a later action says its own words', async () => {
		bridge.answer('stopJob', () => ({ ok: true, value: { kind: 'stopping', via: 'interrupt' } }));
		bridge.answer('interrupt', () => ({ ok: true, value: undefined }));
		const store = new QueuePageStore();
		await store.stop(entry);
		await store.interrupt(entry);
		expect(store.notice).toBe('Interrupt sent: the job stops after its current node.');
		store.dispose();
	});
});
