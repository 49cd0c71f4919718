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
		profiles.profiles = [];
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

	it.each([
		{
			server: 'a current ComfyUI, which took the batch cancel',
			report: { via: 'batch', jobs: [{ promptId: 'job-2', outcome: { kind: 'removed', via: 'job-cancel' } }] },
			notice: 'Local ComfyUI was asked to cancel 1 job in one batch call and confirmed 1 cancelled.',
			line: 'removed from the queue (confirmed)'
		},
		{
			server: 'ComfyUI 0.3.64, asked by the queue delete',
			report: { via: 'one-by-one', jobs: [{ promptId: 'job-2', outcome: { kind: 'removed', via: 'queue-delete' } }] },
			notice: 'Local ComfyUI was asked to cancel 1 job one by one and confirmed 1 cancelled.',
			line: 'removed from the queue (confirmed)'
		},
		{
			server: 'a server that kept the job',
			report: { via: 'one-by-one', jobs: [{ promptId: 'job-2', outcome: { kind: 'still-waiting', via: 'queue-delete' } }] },
			notice: 'Local ComfyUI was asked to cancel 1 job one by one and confirmed 0 cancelled; 1 not (see each job).',
			line: 'still waiting: the server kept it'
		}
	] as const)(
		"a waiting job's own Cancel goes the selection's way ($server) and shows what the server confirmed",
		async ({ report, notice, line }) => {
			profiles.profiles = [{ id: 'p', name: 'Local ComfyUI' } as (typeof profiles.profiles)[number]];
			const portrait: QueueEntry = { promptId: 'job-2', runId: null, title: 'Portrait', position: 0 };
			const other: QueueEntry = { promptId: 'job-3', runId: null, title: 'Landscape', position: 1 };
			let asked = false;
			bridge.answer('queue', () => ({ ok: true, value: { running: [], pending: asked ? [other] : [portrait, other] } }));
			bridge.answer('cancelJobs', () => ((asked = true), { ok: true, value: report }));
			const store = new QueuePageStore();
			await store.refresh();
			store.toggle('job-3'); // another job picked: it stays picked
			await store.cancelWaiting(portrait);
			expect(bridge.callsOf('cancelJobs')).toEqual([{ profileId: 'p', promptIds: ['job-2'] }]);
			expect(store.notice).toBe(notice);
			expect(store.results).toEqual([{ promptId: 'job-2', title: 'Portrait', words: line }]);
			expect(store.selected).toEqual(['job-3']);
			store.dispose();
		}
	);

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
