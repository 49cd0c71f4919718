import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelRun } from '$lib/models/rules/model-run';
import { bridge } from '../../core/state/testing/fake-bridge';
import { ModelRunsStore } from './model-runs.svelte';

vi.mock('$lib/core/state/worker-bridge.svelte', () => import('../../core/state/testing/fake-bridge'));

const run = (status: ModelRun['status'], savedAt: number, phase?: string): ModelRun =>
	({
		schemaVersion: 1,
		kind: 'model',
		id: 'm1',
		profileId: 'p',
		modelId: 'tidal/wave-1-t2v',
		title: 'wave',
		mode: 'queue',
		body: {},
		idempotencyKey: 'k',
		keyCreatedAt: 0,
		status,
		attempts: 1,
		replayed: false,
		createdAt: 0,
		savedAt,
		...(phase ? { phase } : {})
	}) as ModelRun;

describe('the model runs a page holds', () => {
	beforeEach(() => bridge.reset());

	it('a load answered after the run finished does not put it back to "collecting"', async () => {
		const store = new ModelRunsStore();
		let answerLoad: (runs: ModelRun[]) => void = () => {};
		bridge.answer('modelRuns', () => new Promise<ModelRun[]>((resolve) => (answerLoad = resolve)));
		bridge.answer('modelSpend', () => null);
		const loading = store.load('p');
		await Promise.resolve();
		// The read was taken while the run was collecting; the run finishes before its answer arrives.
		bridge.emit({ type: 'model-run', run: run('succeeded', 20) });
		answerLoad([run('queued', 10, 'Finished; collecting the result.')]);
		await loading;
		expect(store.runs['m1']).toMatchObject({ status: 'succeeded', savedAt: 20 });
		expect(store.forModel('p', 'tidal/wave-1-t2v').map((r) => r.status)).toEqual(['succeeded']);
	});

	it('an older action answer does not undo a newer event, and a newer event always lands', async () => {
		const store = new ModelRunsStore();
		bridge.answer('modelRun', () => run('queued', 5));
		bridge.emit({ type: 'model-run', run: run('running', 7) }); // not yet subscribed: not heard
		expect(await store.loadOne('m1')).toMatchObject({ status: 'queued' });
		bridge.emit({ type: 'model-run', run: run('succeeded', 9) });
		bridge.answer('cancelModelRun', () => ({ ok: true, value: run('queued', 8) }));
		await store.cancel('m1');
		expect(store.runs['m1']?.status).toBe('succeeded');
	});
});
