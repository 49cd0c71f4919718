import { describe, expect, it, vi } from 'vitest';
import { appError, fail, ok } from '../../core/protocol/errors';
import type { ModelRun } from '../../core/protocol/model-run';
import { MemoryStore } from '../../core/worker/kv-store';
import { MODEL_AXIS, type StartSweepInput, type SweepRecord } from '../protocol/sweep';
import type { SweepModelPort } from './sweep-service';
import { settle, sweepWorker } from './testing/sweep-worker';

type Started = Parameters<SweepModelPort['start']>[0];

/** A leader worker whose model runs are kept in `runs`; `started` lists every run it was asked to start. */
function worker(kv: MemoryStore, runs: Map<string, ModelRun>) {
	const started: Started[] = [];
	const deleted: string[] = [];
	const models: SweepModelPort = {
		start: async (input) => {
			started.push(input);
			const run = {
				id: input.cell.runId,
				idempotencyKey: input.cell.key,
				modelId: input.modelId,
				status: 'submitting',
				sweep: input.cell.sweep
			} as ModelRun;
			runs.set(run.id, run);
			return ok(run);
		},
		getRun: async (id) => runs.get(id) ?? null,
		cancel: async () => undefined,
		deleteRun: async (id) => void (deleted.push(id), runs.delete(id)),
		bytes: async () => null
	};
	const w = sweepWorker(kv, { models });
	const move = (id: string, change: Partial<ModelRun>) => {
		const run = { ...runs.get(id)!, ...change };
		runs.set(id, run);
		w.emit({ type: 'model-run', run });
	};
	return { ...w, started, deleted, move };
}

const models = ['lumen/flux-1', 'stratus/sd-3', 'vertex/imagen-3'];
const input: StartSweepInput = {
	profileId: 'p',
	workflowId: null,
	title: 'lumen/flux-1',
	base: {},
	seeds: {},
	axes: [
		{ fieldId: MODEL_AXIS, path: [], label: 'Model', seed: false, values: models, pairedWithPrevious: false },
		{ fieldId: 'seed', path: ['seed'], label: 'Seed', seed: true, values: [1, 2], pairedWithPrevious: false }
	],
	model: {
		modelId: 'lumen/flux-1',
		bodies: { 'lumen/flux-1': { prompt: 'a boat' }, 'stratus/sd-3': { prompt: 'a boat' }, 'vertex/imagen-3': { prompt: 'a boat' } }
	}
};

const sweepOf = async (w: ReturnType<typeof worker>, id: string) => (await w.api.getSweep({ id }))!;

describe('a model sweep', () => {
	it('starts each cell as a model run of its model, under the run id and key the sweep stored first', async () => {
		const w = worker(new MemoryStore(), new Map());
		const started = await w.api.startSweep(input);
		await settle();
		const sweep = await sweepOf(w, (started as { value: SweepRecord }).value.id);
		expect(w.started.map((s) => [s.modelId, s.body, s.seeds])).toEqual([
			['lumen/flux-1', { prompt: 'a boat', seed: 1 }, { seed: 1 }],
			['stratus/sd-3', { prompt: 'a boat', seed: 1 }, { seed: 1 }],
			['vertex/imagen-3', { prompt: 'a boat', seed: 1 }, { seed: 1 }],
			['lumen/flux-1', { prompt: 'a boat', seed: 2 }, { seed: 2 }]
		]);
		expect(w.started.map((s) => [s.cell.runId, s.cell.key])).toEqual(sweep.cells.slice(0, 4).map((c) => [c.runId, c.promptId]));
	});

	it('sends a cell the router refused for its in-flight limit again later, as a new run, and the finished ones end the sweep', async () => {
		const w = worker(new MemoryStore(), new Map());
		const id = ((await w.api.startSweep(input)) as { value: SweepRecord }).value.id;
		await settle();
		const refused = w.started[3]!.cell.runId;
		// A synchronous call is running (its connection held) when the router answers 429.
		w.move(refused, { status: 'running' });
		const error = appError('rate-limited', 'The workspace has the maximum number of calls in flight.', {
			status: 429,
			errorType: 'concurrency_limit_exceeded'
		});
		w.move(refused, { status: 'failed', error });
		await settle();
		const after = await sweepOf(w, id);
		expect(after.cells[3]).toMatchObject({ status: 'pending', runId: null });
		expect(after.lastProblem).toBe(error.message);
		expect(w.deleted).toEqual([refused]);

		for (const s of w.started.slice(0, 3)) w.move(s.cell.runId, { status: 'succeeded' });
		// After the sweep's wait (about 2 s), however slow the machine.
		await vi.waitFor(() => expect(w.started.slice(4).map((s) => s.cell.sweep.cell)).toEqual([3, 4, 5]), { timeout: 15_000 });
		for (const s of w.started.slice(4)) w.move(s.cell.runId, { status: 'succeeded' });
		await vi.waitFor(async () => expect((await sweepOf(w, id)).status).toBe('finished'));
	});

	it('after a reload follows the model runs it saved and starts none twice', async () => {
		const kv = new MemoryStore();
		const runs = new Map<string, ModelRun>();
		const before = worker(kv, runs);
		await before.api.startSweep(input);
		await settle();
		// One cell's run never reached storage: the page went away between the sweep's save and the run's.
		runs.delete(before.started[3]!.cell.runId);

		const after = worker(kv, runs);
		after.becomeLeader();
		await settle();
		expect(after.started.map((s) => [s.cell.sweep.cell, s.cell.runId, s.cell.key])).toEqual([
			[3, before.started[3]!.cell.runId, before.started[3]!.cell.key]
		]);
	});

	it('says why a model sweep cannot start where no model runs are wired in', async () => {
		const answer = await sweepWorker(new MemoryStore(), {}).api.startSweep(input);
		expect(answer).toEqual(fail(appError('invalid-input', 'Model sweeps are not available here.')));
	});
});
