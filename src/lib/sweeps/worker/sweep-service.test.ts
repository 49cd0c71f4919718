import { describe, expect, it } from 'vitest';
import { ok } from '../../core/protocol/errors';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import { MemoryStore } from '../../core/worker/kv-store';
import type { SubmitRunInput } from '../../workflows';
import type { StartSweepInput, SweepRecord } from '../protocol/sweep';
import type { SweepRunPort } from './sweep-service';
import { settle, sweepWorker } from './testing/sweep-worker';
import { finishedSweep } from '../rules/testing/finished-sweep';
import { SWEEP_KEY } from '../../core/protocol/storage-keys';
import { CellThumbnails } from './cell-thumbnails';

/** A leader worker whose workflow runs are kept in `runs`; `submitted` lists every submit, `via` the pool each went through. */
function worker(
	kv: MemoryStore,
	runs: Map<string, WorkflowRun>,
	options: { storeRun?: (input: SubmitRunInput) => boolean; capacity?: () => number; cache?: Map<string, Blob> } = {}
) {
	const submitted: SubmitRunInput[] = [];
	const via: Array<string | null> = [];
	const port: SweepRunPort = {
		submit: async (input, poolId) => {
			submitted.push(input);
			via.push(poolId);
			const run = { id: input.runId!, promptId: input.promptId!, status: 'queued', sweep: input.sweep } as WorkflowRun;
			// The submitter stores the run before sending; `storeRun` false plays a reload in between.
			if (options.storeRun?.(input) ?? true) runs.set(run.id, run);
			return new Promise(() => {}); // the answer never comes: the page reloads first
		},
		getRun: async (id) => runs.get(id) ?? null,
		stopRun: async () => undefined,
		deleteRun: async (id) => void runs.delete(id),
		output: async () => ({ ok: false, error: { kind: 'not-found', message: 'none' } }),
		cachedOutput: async (runId, index) => options.cache?.get(`${runId}:${index}`) ?? null,
		surfaceKind: async () => 'local-comfyui',
		poolCapacity: async (poolId) => (poolId === 'home' ? (options.capacity?.() ?? 6) : 0)
	};
	const thumbnailOf = async (blob: Blob) => ok(new Blob([`thumb of ${await blob.text()}`]));
	return { ...sweepWorker(kv, { runs: port, thumbnailOf }), submitted, via };
}

const input: StartSweepInput = {
	profileId: 'p',
	workflowId: 'w',
	title: 'T',
	base: { '3': { class_type: 'KSampler', inputs: { seed: 0, cfg: 8 } } },
	seeds: {},
	axes: [{ fieldId: '3.seed', path: ['3', 'seed'], label: 'seed', seed: true, values: [1, 2, 3], pairedWithPrevious: false }]
};

describe('SweepService', () => {
	it('sends a local ComfyUI two cells at a time, each with the cell’s values and the sweep’s id', async () => {
		const w = worker(new MemoryStore(), new Map());
		const started = await w.api.startSweep(input);
		await settle();
		expect(started.ok).toBe(true);
		expect(w.submitted.map((s) => [s.prompt['3']!.inputs['seed'], s.seeds['3.seed'], s.sweep?.cell])).toEqual([
			[1, 1, 0],
			[2, 2, 1]
		]);
	});

	it('sends its cells through a pool, two in flight for each member that is on', async () => {
		const w = worker(new MemoryStore(), new Map());
		const many = { ...input, poolId: 'home', axes: [{ ...input.axes[0]!, values: [1, 2, 3, 4, 5, 6, 7, 8] }] };
		const started = await w.api.startSweep(many);
		await settle();
		expect(started.ok && started.value.window).toBe(6);
		expect(w.submitted.map((s) => s.sweep?.cell)).toEqual([0, 1, 2, 3, 4, 5]);
		expect(new Set(w.via)).toEqual(new Set(['home']));
	});

	it('keeps as many cells in flight as the pool takes now: a member switched on widens the window at once', async () => {
		let capacity = 2;
		const w = worker(new MemoryStore(), new Map(), { capacity: () => capacity });
		const many = { ...input, poolId: 'home', axes: [{ ...input.axes[0]!, values: [1, 2, 3, 4, 5, 6, 7, 8] }] };
		await w.api.startSweep(many);
		await settle();
		expect(w.submitted.map((s) => s.sweep?.cell)).toEqual([0, 1]);
		capacity = 6; // a second and a third member switched on
		w.emit({ type: 'pools', pools: [] });
		await settle();
		expect(w.submitted.map((s) => s.sweep?.cell)).toEqual([0, 1, 2, 3, 4, 5]);
	});

	it('after a reload follows the cells it sent and sends again only the one never sent, with the same ids', async () => {
		const kv = new MemoryStore();
		const runs = new Map<string, WorkflowRun>();
		const before = worker(kv, runs, { storeRun: (i) => i.sweep?.cell === 0 });
		const started = await before.api.startSweep(input);
		await settle();
		const sweepId = (started as { value: SweepRecord }).value.id;
		const cell1 = before.submitted[1]!;

		const after = worker(kv, runs);
		after.becomeLeader();
		await settle();
		expect(after.submitted.map((s) => [s.sweep?.cell, s.runId, s.promptId])).toEqual([[1, cell1.runId, cell1.promptId]]);

		// The first cell's run ends: the third is sent.
		after.emit({ type: 'run', run: { ...runs.get(before.submitted[0]!.runId!)!, status: 'succeeded' } });
		await settle();
		expect(after.submitted.map((s) => s.sweep?.cell)).toEqual([1, 2]);
		expect((await after.api.getSweep({ id: sweepId }))?.cells.map((c) => c.status)).toEqual(['succeeded', 'sending', 'sending']);
	});

	it('keeps a thumbnail of each ended cell’s shown output, and saves the output shown, which the thumbnails follow', async () => {
		const kv = new MemoryStore();
		const runs = new Map<string, WorkflowRun>();
		const cache = new Map<string, Blob>();
		const w = worker(kv, runs, { cache });
		const started = await w.api.startSweep(input);
		await settle();
		const sweepId = (started as { value: SweepRecord }).value.id;
		const first = w.submitted[0]!.runId!;
		const outputs = ['9', '7'].map((nodeId) => ({
			nodeId,
			kind: 'image',
			ref: { filename: `${nodeId}.png`, subfolder: '', type: 'output' }
		}));
		cache.set(`${first}:0`, new Blob(['saved']));
		cache.set(`${first}:1`, new Blob(['preview']));
		runs.set(first, { ...runs.get(first)!, status: 'succeeded', outputs } as WorkflowRun);
		w.emit({ type: 'run', run: runs.get(first)! });
		await settle();
		const thumbnail = async () => {
			const shown = await w.api.sweepCellPicture({
				id: sweepId,
				cell: 0,
				output: (await w.api.getSweep({ id: sweepId }))?.shownSource === '7' ? 1 : 0
			});
			return shown && 'picture' in shown ? shown : null;
		};
		cache.clear();
		expect(await (await thumbnail())?.picture.text()).toBe('thumb of saved');

		cache.set(`${first}:1`, new Blob(['preview']));
		const shown = await w.api.showSweepOutput({ id: sweepId, source: '7' });
		expect(shown?.shownSource).toBe('7');
		await settle();
		cache.clear();
		expect((await w.api.getSweep({ id: sweepId }))?.shownSource, 'the choice is saved with the sweep').toBe('7');
		expect(await (await thumbnail())?.picture.text()).toBe('thumb of preview');
	});

	describe('when its runs are deleted', () => {
		/** A stored finished sweep of runs r0 and r1 with a thumbnail per cell, and the worker that sees the deletes. */
		async function storedSweep(status: SweepRecord['status'] = 'finished') {
			const kv = new MemoryStore();
			const runs = new Map(['r0', 'r1'].map((id) => [id, { id, status: 'succeeded' } as WorkflowRun]));
			await kv.set(SWEEP_KEY + 's1', { ...finishedSweep(), status });
			const thumbnails = new CellThumbnails(kv);
			for (const cell of [0, 1]) await thumbnails.put('s1', cell, { runId: `r${cell}`, output: 0, picture: new Blob(['thumb']) });
			const w = worker(kv, runs);
			const deleteRuns = async (ids: string[]) => {
				for (const id of ids) {
					runs.delete(id);
					w.emit({ type: 'run-deleted', id });
				}
				await settle();
			};
			return { w, thumbnails, deleteRuns };
		}

		it.each([
			{ deleted: ['r0', 'r1'], status: 'finished', kept: false, why: 'all of its runs are gone: the sweep and its thumbnails go' },
			{ deleted: ['r0'], status: 'finished', kept: true, why: 'a run is left: the sweep still shows it' },
			{ deleted: ['r0', 'r1'], status: 'paused', kept: true, why: 'a paused sweep still has cells to send' }
		] as const)('$why', async ({ deleted, status, kept }) => {
			const { w, thumbnails, deleteRuns } = await storedSweep(status);
			await deleteRuns([...deleted]);
			expect((await w.api.getSweep({ id: 's1' })) !== null).toBe(kept);
			expect((await thumbnails.held('s1')).thumbnails.count).toBe(kept ? 2 : 0);
		});

		it('one delete after another still drops the sweep once its last run goes', async () => {
			const { w, deleteRuns } = await storedSweep();
			await deleteRuns(['r0']);
			await deleteRuns(['r1']);
			expect(await w.api.getSweep({ id: 's1' })).toBeNull();
		});
	});
});
