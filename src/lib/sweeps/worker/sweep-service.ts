/**
 * The sweep's thin driver: reads the record, steps the pure reducer (`rules/sweep-reducer.ts`),
 * saves, then performs the effects (send a cell as an ordinary run, stop runs, wake later) and feeds
 * the answers back. One step at a time per sweep. Only the tabs' leader sends; any tab may pause,
 * resume or cancel, and the leader picks the change up from storage.
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import type { WorkerContext } from '../../core/worker/context';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import type { ModelRun } from '../../core/protocol/model-run';
import { isStorageFull } from '../../core/worker/quota';
import type { SurfaceKind } from '../../workflows';
import {
	SWEEP_SCHEMA_VERSION,
	type CellStatus,
	type StartSweepInput,
	type SweepAction,
	type SweepApi,
	type SweepHolding,
	type SweepRecord
} from '../protocol/sweep';
import { axisGroups, cellPrompt, cellSeeds, planCells } from '../rules/sweep-plan';
import { stepSweep, type SweepEffect, type SweepInput } from '../rules/sweep-reducer';
import { modelCellRun } from '../rules/model-cells';
import { SweepRepo } from './sweep-repo';
import { gridPicture } from './grid-picture';
import { CellPictures } from './cell-pictures';
import type { SweepRunPort } from './run-port';
import type { SweepModelPort } from './model-port';

export type { SweepRunPort } from './run-port';
export type { SweepModelPort } from './model-port';

/**
 * Cells sent at once. A local ComfyUI runs one job at a time: one running and one waiting keeps it
 * busy without filling its queue. The cloud queues per account: a few ahead, no invented limit beyond.
 */
const WINDOW: Record<SurfaceKind, number> = { 'local-comfyui': 2, 'cloud-v1': 4, v2: 4 };
/**
 * Model cells sent at once: the synchronous calls the page holds open at most. The router's
 * per-workspace in-flight limit is not published: a cell it refuses (429 `concurrency_limit_exceeded`)
 * goes back to waiting and the sweep waits before the next.
 */
const MODEL_WINDOW = 4;

export class SweepService {
	private readonly repo: SweepRepo;
	/** Each sweep's steps, one after another. */
	private readonly chains = new Map<string, Promise<unknown>>();
	/** Cells this worker is sending now: a reload check must not take them for never sent. */
	private readonly sending = new Set<string>();
	private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
	/** Each sweep as last saved here: a run's every progress event is a step, not a read of storage. */
	private readonly cached = new Map<string, SweepRecord>();
	private readonly pictures: CellPictures;
	/** Runs deleted since the last look for sweeps left with none (a batch of deletes is one look). */
	private readonly deletedRuns = new Set<string>();

	constructor(
		private readonly ctx: WorkerContext,
		private readonly runs: SweepRunPort,
		private readonly models: SweepModelPort | null = null,
		private readonly now: () => number = Date.now,
		pictures?: CellPictures
	) {
		this.repo = new SweepRepo(ctx.kv);
		this.pictures = pictures ?? new CellPictures(ctx.kv, runs, models);
		ctx.onLeader(() => void this.resumeAll());
		ctx.onTabTopic('sweeps-changed', () => {
			this.cached.clear();
			if (ctx.isLeader()) void this.resumeAll();
		});
		ctx.onEmit((event) => {
			if (event.type !== 'run' || !event.run.sweep) return;
			const status = cellStatusOf(event.run);
			const movedTo = event.run.movedTo;
			const runId = event.run.id;
			void this.step(event.run.sweep.id, {
				kind: 'run',
				runId,
				status,
				...(movedTo ? { movedTo: { runId: movedTo.runId, promptId: movedTo.promptId } } : {})
			}).then((after) => this.cellEnded(after, runId, status));
		});
		// Deleting runs (the Runs list deletes a sweep's entry as all of its runs) leaves the sweep's
		// record and thumbnails behind: once none of its runs is left, they go too.
		ctx.onEmit((event) => {
			if (event.type !== 'run-deleted') return;
			if (this.deletedRuns.size === 0) setTimeout(() => void this.dropEmptied(), 0);
			this.deletedRuns.add(event.id);
		});
		// A pool's members switched on or off: its sweeps' windows follow at once.
		ctx.onEmit((event) => {
			if (event.type === 'pools' && ctx.isLeader()) void this.poolsChanged();
		});
		ctx.onEmit((event) => {
			if (event.type !== 'model-run' || !event.run.sweep) return;
			const { id, cell } = event.run.sweep;
			const refusal = refusalOf(event.run);
			if (refusal) void this.step(id, { kind: 'refused', index: cell, ...refusal });
			else {
				const [runId, status] = [event.run.id, modelCellStatus(event.run)];
				void this.step(id, { kind: 'run', runId, status }).then((after) => this.cellEnded(after, runId, status));
			}
		});
	}

	api(): SweepApi {
		return {
			startSweep: (i) => this.start(i),
			getSweep: async ({ id }) => (await this.repo.get(id)) ?? null,
			listSweeps: () => this.repo.list(),
			sweepAction: ({ id, action }) => this.act(id, action),
			showSweepOutput: ({ id, source }) => this.show(id, source),
			sweepCellPicture: async ({ id, cell, output }) => {
				const sweep = this.cached.get(id) ?? (await this.repo.get(id));
				return sweep ? this.pictures.cellPicture(sweep, cell, output) : null;
			},
			sweepCellVideo: async ({ id, cell, output }) => {
				const sweep = this.cached.get(id) ?? (await this.repo.get(id));
				return sweep ? this.pictures.cellVideo(sweep, cell, output) : null;
			},
			sweepPicture: async ({ id }) => {
				const sweep = await this.repo.get(id);
				if (!sweep) return fail(appError('not-found', 'This sweep is no longer here.'));
				return gridPicture(sweep, (cell) => this.pictures.pictureImage(sweep, cell));
			}
		};
	}

	async removeProfile(profileId: string): Promise<void> {
		for (const id of await this.repo.removeProfile(profileId)) await this.pictures.thumbnails.remove(id);
	}

	/** What each sweep keeps on this device, for the storage page (worker-internal: the storage feature asks). */
	async holdings(): Promise<SweepHolding[]> {
		return Promise.all((await this.repo.list()).map((sweep) => this.pictures.holding(sweep)));
	}

	/** Removes a sweep's thumbnails (the storage page's "Free", when the person chooses); returns what they held. */
	removeThumbnails(id: string): Promise<{ count: number; bytes: number }> {
		return this.pictures.thumbnails.remove(id);
	}

	/** Deletes each ended sweep that lost runs in the last deletes and has none left, with its thumbnails. */
	private async dropEmptied(): Promise<void> {
		const deleted = new Set(this.deletedRuns);
		this.deletedRuns.clear();
		let dropped = 0;
		for (const sweep of await this.repo.list()) {
			if (sweep.status === 'running' || sweep.status === 'paused') continue;
			const runIds = sweep.cells.flatMap((c) => (c.runId ? [c.runId] : []));
			if (!runIds.some((id) => deleted.has(id))) continue;
			if (
				await this.anyRunLeft(
					sweep,
					runIds.filter((id) => !deleted.has(id))
				)
			)
				continue;
			await this.repo.delete(sweep.id);
			await this.pictures.thumbnails.remove(sweep.id);
			this.cached.delete(sweep.id);
			dropped++;
		}
		if (dropped > 0) this.ctx.notifyTabs('sweeps-changed');
	}

	private async anyRunLeft(sweep: SweepRecord, runIds: string[]): Promise<boolean> {
		for (const id of runIds) {
			const run = sweep.model ? await this.models?.getRun(id) : await this.runs.getRun(id);
			if (run) return true;
		}
		return false;
	}

	/** A cell's run succeeded: the leader keeps a thumbnail (a video's poster) of its shown output (fetched now, as every finished run's outputs are). */
	private cellEnded(sweep: SweepRecord | null, runId: string, status: CellStatus): void {
		if (status !== 'succeeded' || !sweep || !this.ctx.isLeader()) return;
		const cell = sweep.cells.find((c) => c.runId === runId);
		if (cell) void this.pictures.keep(sweep, cell, true);
	}

	/** Saves the output the grid shows; thumbnails of finished cells follow from the outputs still cached. */
	private async show(id: string, source: string | null): Promise<SweepRecord | null> {
		const after = await this.step(id, { kind: 'show', source });
		if (!this.ctx.isLeader()) this.ctx.notifyTabs('sweeps-changed');
		for (const cell of after?.cells ?? []) if (after && cell.status === 'succeeded') void this.pictures.keep(after, cell, false);
		return after;
	}

	private async start(input: StartSweepInput): Promise<Result<SweepRecord>> {
		const plan = axisGroups(input.axes);
		if (!plan.ok) return fail(appError('invalid-input', plan.message));
		if (input.model && !this.models) return fail(appError('invalid-input', 'Model sweeps are not available here.'));
		const kind = input.model ? null : await this.runs.surfaceKind(input.profileId);
		// Through a pool, the pool says how many runs it takes at once (read again at every step).
		const window = input.model ? MODEL_WINDOW : input.poolId ? await this.poolWindow(input.poolId) : WINDOW[kind ?? 'cloud-v1'];
		const sweep: SweepRecord = {
			schemaVersion: SWEEP_SCHEMA_VERSION,
			id: crypto.randomUUID(),
			...input,
			cells: planCells(input.axes),
			status: 'running',
			createdAt: this.now(),
			window
		};
		try {
			await this.repo.put(sweep, { required: true });
		} catch (error) {
			if (!isStorageFull(error)) throw error;
			return fail(appError('storage', error.message));
		}
		this.ctx.emit({ type: 'sweep', sweep });
		if (this.ctx.isLeader()) void this.step(sweep.id, { kind: 'tick' });
		else this.ctx.notifyTabs('sweeps-changed');
		return ok(sweep);
	}

	private async act(id: string, action: SweepAction): Promise<SweepRecord | null> {
		const after = await this.step(id, { kind: 'action', action });
		if (!this.ctx.isLeader()) this.ctx.notifyTabs('sweeps-changed');
		return after;
	}

	/** The leader (after a reload, or a tab handing over): every unfinished sweep, its cells checked against their runs. */
	private async resumeAll(): Promise<void> {
		for (const sweep of await this.repo.list()) {
			if (sweep.status === 'finished' || sweep.status === 'cancelled') {
				if (!sweep.cells.some((c) => c.status === 'sending' || c.status === 'queued' || c.status === 'running')) continue;
			}
			for (const cell of sweep.cells) {
				if (!cell.runId || !(cell.status === 'sending' || cell.status === 'queued' || cell.status === 'running')) continue;
				if (this.sending.has(cell.runId)) continue;
				const status = await this.runStatus(sweep, cell.runId);
				// The run is stored before its submit is sent: no record means nothing was sent.
				if (!status) await this.step(sweep.id, { kind: 'never-sent', index: cell.index });
				// A cell that ended while no page was open has had no event: its thumbnail is kept now.
				else this.cellEnded(await this.step(sweep.id, { kind: 'run', runId: cell.runId, status }), cell.runId, status);
			}
			await this.step(sweep.id, { kind: 'tick' });
		}
	}

	/** Cells a pool's sweep keeps in flight: what the pool takes at once, at least one while it has a member on. */
	private async poolWindow(poolId: string): Promise<number> {
		return Math.max(1, await this.runs.poolCapacity(poolId));
	}

	private async poolsChanged(): Promise<void> {
		for (const sweep of this.cached.values()) if (sweep.poolId && sweep.status === 'running') await this.step(sweep.id, { kind: 'tick' });
	}

	/** One step of one sweep: read, reduce, save, tell the page, perform. */
	private step(id: string, input: SweepInput): Promise<SweepRecord | null> {
		const previous = this.chains.get(id) ?? Promise.resolve();
		const next = previous.then(async () => {
			const sweep = this.cached.get(id) ?? (await this.repo.get(id));
			if (!sweep) return null;
			// A pool's sweep keeps as many cells in flight as the pool takes now.
			const window = sweep.poolId && !sweep.model ? await this.poolWindow(sweep.poolId) : sweep.window;
			const { sweep: after, effects } = stepSweep(window === sweep.window ? sweep : { ...sweep, window }, input, {
				now: this.now(),
				newId: () => crypto.randomUUID(),
				dispatch: this.ctx.isLeader()
			});
			if (after !== sweep) {
				await this.repo.put(after, { required: effects.some((e) => e.kind === 'send') });
				this.cached.set(id, after);
				this.ctx.emit({ type: 'sweep', sweep: after });
			}
			for (const effect of effects) this.perform(after, effect);
			return after;
		});
		this.chains.set(
			id,
			next.catch(() => undefined)
		);
		return next;
	}

	private perform(sweep: SweepRecord, effect: SweepEffect): void {
		switch (effect.kind) {
			case 'send':
				void this.send(sweep, effect.index, effect.runId, effect.promptId);
				return;
			case 'stop':
				for (const runId of effect.runIds) void (sweep.model ? this.models?.cancel(runId) : this.runs.stopRun(runId));
				return;
			case 'discard-run':
				void (sweep.model ? this.models?.deleteRun(effect.runId) : this.runs.deleteRun(effect.runId));
				return;
			case 'wake-at': {
				clearTimeout(this.timers.get(sweep.id));
				const wait = Math.max(0, effect.at - this.now());
				this.timers.set(
					sweep.id,
					setTimeout(() => void this.step(sweep.id, { kind: 'tick' }), wait)
				);
				return;
			}
		}
	}

	/** How a cell's run stands as saved, or null when no run was saved under its id. */
	private async runStatus(sweep: SweepRecord, runId: string): Promise<CellStatus | null> {
		if (sweep.model) {
			const run = await this.models?.getRun(runId);
			return run ? modelCellStatus(run) : null;
		}
		const run = await this.runs.getRun(runId);
		return run ? cellStatusOf(run) : null;
	}

	/**
	 * A model cell: its run is saved under the cell's run id and key before it is sent, so a resend
	 * after a reload is that same run under the same Idempotency-Key. Its events move the cell.
	 */
	private async sendModelCell(sweep: SweepRecord, index: number, runId: string, key: string): Promise<void> {
		const cell = sweep.cells[index];
		if (!cell || !sweep.model || !this.models) return;
		const { modelId, body } = modelCellRun(sweep.model, sweep.axes, cell.values);
		this.sending.add(runId);
		try {
			const answer = await this.models.start({
				profileId: sweep.profileId,
				modelId,
				body,
				seeds: cellSeeds(sweep.seeds, sweep.axes, cell.values),
				cell: { runId, key, sweep: { id: sweep.id, cell: index } }
			});
			if (!answer.ok) await this.step(sweep.id, { kind: 'send-failed', index, message: answer.error.message });
		} finally {
			this.sending.delete(runId);
		}
	}

	private async send(sweep: SweepRecord, index: number, runId: string, promptId: string): Promise<void> {
		if (sweep.model) return this.sendModelCell(sweep, index, runId, promptId);
		const cell = sweep.cells[index];
		if (!cell) return;
		this.sending.add(runId);
		try {
			const answer = await this.runs.submit(
				{
					profileId: sweep.profileId,
					workflowId: sweep.workflowId,
					title: sweep.title,
					prompt: cellPrompt(sweep.base, sweep.axes, cell.values),
					seeds: cellSeeds(sweep.seeds, sweep.axes, cell.values),
					runId,
					promptId,
					sweep: { id: sweep.id, cell: index }
				},
				sweep.poolId ?? null
			);
			if (answer.ok) return void (await this.step(sweep.id, { kind: 'sent', index }));
			const error = answer.error;
			if (error.kind === 'rejected') return void (await this.step(sweep.id, { kind: 'send-failed', index, message: error.message }));
			const { kind, status, message } = error.error;
			// Sent, answer lost: the run is kept and followed; its events move the cell.
			if ((kind === 'network' || kind === 'timeout') && error.runId) return;
			if (kind === 'rate-limited' || status === 429 || status === 409)
				return void (await this.step(sweep.id, { kind: 'refused', index, retryAfterMs: null, message }));
			await this.step(sweep.id, { kind: 'send-failed', index, message });
		} finally {
			this.sending.delete(runId);
		}
	}
}

function cellStatusOf(run: WorkflowRun): CellStatus {
	return run.status === 'submitting' ? 'sending' : run.status;
}

function modelCellStatus(run: ModelRun): CellStatus {
	if (run.status === 'submitting') return 'sending';
	// Outcome unknown (a consumed key, a person who stopped waiting): the cell needs a look, as a lost job does.
	return run.status === 'unknown' ? 'lost' : run.status;
}

/**
 * A model run the router refused before sending it on (429: the workspace's in-flight limit, or a
 * spent rate window): not a failed cell but one to send again after the wait, as a new run.
 */
function refusalOf(run: ModelRun): { retryAfterMs: number | null; message: string } | null {
	const error = run.error;
	if (run.status !== 'failed' || error?.status !== 429) return null;
	if (error.errorType !== 'concurrency_limit_exceeded' && error.errorType !== 'rate_limited') return null;
	// The run keeps no Retry-After (the in-flight refusal sends none): the sweep's own short wait applies.
	return { retryAfterMs: null, message: error.message };
}
