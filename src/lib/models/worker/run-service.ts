/**
 * Drives model runs: the rules are the pure reducer (`rules/model-run-reducer.ts`) and commands (`rules/model-run-commands.ts`); this file only
 * performs its effects (a call, a wait, a free connection, storing the result) and saves each state.
 * The key is created and saved with the model id and body before the first send.
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import { isStorageFull } from '../../core/worker/quota';
import { isModelTerminal, type ModelRun } from '../rules/model-run';
import * as reducer from '../rules/model-run-reducer';
import * as commands from '../rules/model-run-commands';
import type { ModelAnswer, ModelDrive, ModelEffect } from '../rules/model-drive';
import type { RouterModelListEntry } from '../protocol/router-api';
import type { WorkerContext } from '../../core/worker/context';
import type { StartModelRunInput } from '../protocol/api';
import type { ModelDeps } from './deps';
import { fetchAsset, keepResult, type AssetFetch } from './result-store';
import { cancelQueued, modelRunRequest, routerClient, type RouterClient } from './router-client';
import { RunRepo } from './run-repo';
import { Slots, SYNC_HELD_OPEN_CAP } from './slots';

export interface RunServiceDeps extends ModelDeps {
	newId(): string;
	getAsset?: AssetFetch;
}

/** What the driver holds between steps: a connection slot while a synchronous call is out. */
type Held = { release?: () => void };

const online = () => (globalThis.navigator as { onLine?: boolean } | undefined)?.onLine !== false;
const gone = () => fail(appError('not-found', 'This run is no longer saved.'));

export class RunService {
	readonly repo: RunRepo;
	readonly slots = new Slots(SYNC_HELD_OPEN_CAP);
	private readonly aborts = new Map<string, AbortController>();
	private readonly driving = new Map<string, Promise<void>>();
	/** Ends a driver's wait early (a cancel answered that the request had already finished: check it now). */
	private readonly wakers = new Map<string, () => void>();
	/** Outbox runs being released right now. */
	private readonly releasing = new Set<string>();

	constructor(
		private readonly ctx: WorkerContext,
		private readonly deps: RunServiceDeps,
		/** A model's catalog facts (its policy-charge rule), from the catalog or the detail route. */
		private readonly entryOf: (profileId: string, modelId: string) => Promise<RouterModelListEntry | undefined>
	) {
		this.repo = new RunRepo(ctx);
	}

	async start(input: StartModelRunInput): Promise<Result<ModelRun>> {
		await this.ctx.ready();
		const client = await routerClient(this.ctx, input.profileId);
		if (!client.ok) return client;
		const offline = input.offline === true || !online();
		const ids = input.cell ? { id: input.cell.runId, key: input.cell.key } : { id: this.deps.newId(), key: this.deps.newId() };
		const run = commands.newModelRun({ ...input, ...(input.cell ? { sweep: input.cell.sweep } : {}) }, ids, this.deps.now(), offline);
		if (!run.ok) return run;
		// The key, model id and body reach the device before anything is sent, or nothing is sent.
		let saved: ModelRun;
		try {
			saved = await this.repo.save(run.value, { required: true });
		} catch (error) {
			if (!isStorageFull(error)) throw error;
			return fail(appError('storage', error.message));
		}
		// A sweep's cell is not what the person last typed for this model.
		if (!input.cell) await this.repo.saveInputs(input.profileId, input.modelId, input.body);
		if (!offline) this.drive(saved.id);
		// The leader takes over every unfinished run, whoever started it: should this tab close, it goes on there.
		if (!offline && !this.ctx.isLeader()) this.ctx.notifyTabs('models-changed');
		return ok(saved);
	}

	/**
	 * Sends the runs composed offline, once each. Only the leader tab calls this, so two tabs never
	 * send the same run; the flag is cleared and saved before the send, and the key's retention
	 * clock starts now, at its first use.
	 */
	async sendOutbox(listed?: readonly ModelRun[]): Promise<number> {
		if (!this.ctx.isLeader() || !online()) return 0;
		let sent = 0;
		for (const run of listed ?? (await this.repo.list())) {
			// Several triggers can fire together: the check and the claim happen with no await between them.
			if (!run.outbox || isModelTerminal(run.status) || this.driving.has(run.id) || this.releasing.has(run.id)) continue;
			this.releasing.add(run.id);
			try {
				const latest = await this.repo.get(run.id);
				if (!latest || isModelTerminal(latest.status)) continue;
				// Released only once the release is on the device: otherwise a reopened tab would send it again.
				try {
					await this.repo.save(commands.releasedFromOutbox(latest, this.deps.now()), { required: true });
				} catch (error) {
					if (!isStorageFull(error)) throw error;
					continue;
				}
				this.drive(run.id);
				sent++;
			} finally {
				this.releasing.delete(run.id);
			}
		}
		return sent;
	}

	/** Sends again under the SAME key (a person's choice after no answer, or after stopping waiting). */
	async retry({ id }: { id: string }): Promise<Result<ModelRun>> {
		const run = await this.repo.get(id);
		if (!run) return gone();
		if (this.driving.has(id)) return ok(run);
		const again = await this.repo.save(commands.retried(run, this.deps.now()));
		if (!isModelTerminal(again.status)) this.drive(id);
		return ok(again);
	}

	async stopWaiting({ id }: { id: string }): Promise<Result<ModelRun>> {
		const run = await this.repo.get(id);
		if (!run) return gone();
		if (isModelTerminal(run.status)) return ok(run);
		const saved = await this.repo.save(commands.stoppedWaiting(run, this.deps.now()));
		this.aborts.get(id)?.abort();
		return ok(saved);
	}

	async cancel({ id }: { id: string }): Promise<Result<ModelRun>> {
		const run = await this.repo.get(id);
		if (!run?.queue) return fail(commands.NOT_CANCELLABLE);
		const client = await routerClient(this.ctx, run.profileId);
		if (!client.ok) return client;
		const answered = await cancelQueued(client.value, run.queue.cancelUrl);
		if (!answered.ok) return answered;
		const saved = await this.repo.save(commands.cancelAnswered((await this.repo.get(id)) ?? run, run.queue, answered.value));
		if (saved.queue?.cancel === 'already-completed') this.wakers.get(id)?.();
		return ok(saved);
	}

	/** Re-attaches unfinished runs after a reload: queued ones by request id, synchronous ones under their key. */
	async resume(): Promise<number> {
		let n = 0;
		// One read of every model run for both: 10,000 of them held up the worker's other reads at a reload.
		const runs = await this.repo.list();
		for (const run of runs) {
			if (isModelTerminal(run.status) || this.driving.has(run.id) || run.outbox) continue;
			this.drive(run.id);
			n++;
		}
		return n + (await this.sendOutbox(runs));
	}

	/** Resolves when a run's driver stops (tests, benchmarks). */
	async settled(id: string): Promise<ModelRun | undefined> {
		await this.driving.get(id);
		return this.repo.get(id);
	}

	/**
	 * One driver per run across the tabs: it holds the run's Web Lock while it drives. The leader asks for
	 * the lock of every unfinished run it finds, so a run whose tab closed goes on in the leader at once.
	 */
	private drive(id: string): void {
		const locks = this.deps.locks ?? (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
		const driven = locks ? locks.request(`runboard:model-run:${id}`, () => this.driveOnce(id)) : this.driveOnce(id);
		const done = driven
			.catch(async (error: unknown) => {
				const run = await this.repo.get(id);
				if (run && !isModelTerminal(run.status)) await this.repo.save(reducer.crashed(run, error));
			})
			.finally(() => this.driving.delete(id));
		this.driving.set(id, done);
	}

	/** Steps the reducer, saving each state and performing each effect, until it says stop. */
	private async driveOnce(id: string): Promise<void> {
		const first = await this.repo.get(id);
		if (!first || isModelTerminal(first.status)) return;
		const client = await routerClient(this.ctx, first.profileId);
		if (!client.ok) return void (await this.repo.save(commands.notSent(first, client.error, this.deps.now())));
		let drive: ModelDrive | undefined;
		let answer: ModelAnswer = { type: 'begin' };
		const held: Held = {};
		try {
			for (;;) {
				// What a person did meanwhile (stop waiting, cancel) is read back before each answer is applied.
				const latest = await this.repo.get(id);
				if (!latest || isModelTerminal(latest.status)) return;
				drive = drive ? { ...drive, run: latest } : reducer.beginDrive(latest);
				const step = reducer.stepModelRun(drive, answer, { now: this.deps.now(), random: this.deps.random(), origin: client.value.origin });
				const { run } = (drive = step.drive);
				if (run.spend && run.spend !== latest.spend) await this.repo.saveSpend(run.profileId, run.spend);
				if (run !== latest) await this.repo.save(run);
				if (step.effect.type === 'stop') return;
				answer = await this.perform(step.effect, run, client.value, held);
			}
		} finally {
			held.release?.();
		}
	}

	private async perform(
		effect: Exclude<ModelEffect, { type: 'stop' }>,
		run: ModelRun,
		client: RouterClient,
		held: Held
	): Promise<ModelAnswer> {
		switch (effect.type) {
			case 'acquire-slot':
				// A synchronous call holds one of the few connections until its answer is in.
				if (!effect.queued && this.slots.busy >= this.slots.size) return { type: 'slot-busy', size: this.slots.size };
				held.release = await this.slots.acquire();
				return { type: 'slot-acquired' };
			case 'call': {
				const abort = new AbortController();
				this.aborts.set(run.id, abort);
				const res = await client.fetch({ ...modelRunRequest(effect.call, run, client), signal: abort.signal });
				this.aborts.delete(run.id);
				held.release?.();
				held.release = undefined;
				if (!res.ok) return { type: 'no-reply', error: res.error };
				return { type: 'reply', raw: res.value };
			}
			case 'look-up-charge-rule':
				return { type: 'charge-rule', rule: (await this.entryOf(run.profileId, run.modelId))?.billing.charges_on_policy_rejection };
			case 'wait':
				await Promise.race([this.deps.sleep(effect.ms), new Promise<void>((wake) => this.wakers.set(run.id, wake))]);
				this.wakers.delete(run.id);
				return { type: 'waited' };
			case 'store-result':
				return { type: 'stored', ...(await keepResult(this.ctx.kv, run.id, effect.reply, this.deps.getAsset ?? fetchAsset)) };
		}
	}
}
