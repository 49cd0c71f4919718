/**
 * Pools in the worker: stores them, sends a pool's run to one member (`pool-placer.ts` chooses it),
 * says how many runs a pool takes at once, and moves runs between members (`member-moves.ts`). A
 * sent run is an ordinary run on the member's profile: the member's queue schedules it from there.
 * A run for a paid member counts its price first (`pool-spend.ts`), and its end settles it.
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import type { WorkerContext } from '../../core/worker/context';
import type { Pool, PoolApi, PoolFieldErrors, PoolInput, PoolRunError, SubmitPoolRunInput } from '../protocol/pool';
import { poolCapacity } from '../rules/pool-capacity';
import { poolFromInput } from '../rules/pool-input';
import { holdAtEnd } from '../rules/spend-hold';
import { asSubmitError } from '../rules/submit-error';
import type { SubmitRunError, SubmitRunInput } from '../../workflows';
import { MemberDurations } from './durations';
import { MemberMoves } from './member-moves';
import { PoolPlacer } from './pool-placer';
import { readPoolQueue } from './pool-queue';
import { PoolRepo } from './pool-repo';
import { PoolSpend, refusedForCertain } from './pool-spend';
import { SeenQueues } from './seen-queues';
import { SpendHolds } from './spend-holds';
import type { PoolRunPort } from './run-port';

export type { PoolRunPort } from './run-port';

export class PoolService {
	private readonly repo: PoolRepo;
	private readonly spend: PoolSpend;
	private readonly durations: MemberDurations;
	private readonly placer: PoolPlacer;
	private readonly moves: MemberMoves;
	/** The pools as last read or saved here: a sweep asks a pool's capacity at every step. */
	private known: Map<string, Pool> | null = null;
	/** Each pool's choices, one after another (see `inTurn`). */
	private readonly chains = new Map<string, Promise<unknown>>();

	private readonly runs: PoolRunPort;
	private readonly seen: SeenQueues;

	constructor(
		private readonly ctx: WorkerContext,
		runs: PoolRunPort,
		private readonly now: () => number = Date.now
	) {
		this.seen = new SeenQueues(ctx.kv);
		// Every queue read leaves what the member was running, for when it stops answering; every
		// run sent for a pool (new or moved) counts a paid member's price first.
		this.runs = {
			...runs,
			submit: (input) => this.submitCounted(runs, input),
			queue: async (profileId) => {
				const queue = await runs.queue(profileId);
				if (queue.ok) await this.seen.note(profileId, queue.value, this.now());
				else await this.seen.noteSilent(profileId, this.now());
				return queue;
			}
		};
		this.repo = new PoolRepo(ctx.kv);
		this.spend = new PoolSpend(
			this.repo,
			new SpendHolds(ctx.kv),
			async (id) => (await ctx.profiles.get(id))?.name ?? 'A deleted profile',
			now
		);
		this.durations = new MemberDurations(ctx.kv);
		this.placer = new PoolPlacer(ctx, this.runs, this.durations);
		this.moves = new MemberMoves({
			ctx,
			runs: this.runs,
			placer: this.placer,
			seen: this.seen,
			pool: (id) => this.repo.get(id),
			savePool: (pool) => this.store(pool),
			inTurn: (poolId, work) => this.inTurn(poolId, work),
			settleSpend: (run) => this.settleSpend(run),
			now
		});
		ctx.onEmit((event) => {
			if (event.type !== 'run') return;
			if (event.run.status === 'succeeded') this.durations.note(event.run);
			this.onRunEnd(event.run);
			this.moves.onRun(event.run);
		});
		ctx.onTabTopic('pools-changed', () => {
			this.known = null;
			void this.publish();
		});
	}

	api(): PoolApi {
		return {
			listPools: () => this.repo.list(),
			savePool: ({ pool }) => this.save(pool),
			deletePool: ({ id }) => this.remove(id),
			submitPoolRun: (input) => this.submit(input),
			poolQueue: async ({ poolId }) => {
				const pool = await this.repo.get(poolId);
				if (!pool) return fail({ kind: 'not-found', message: 'This pool no longer exists.' });
				await this.seen.ready();
				return ok(await readPoolQueue(pool, { ctx: this.ctx, runs: this.runs, durations: this.durations, seen: this.seen }, this.now()));
			},
			moveRun: (input) => this.moves.move(input),
			memberGone: (input) => this.moves.gone(input),
			switchMemberOn: (input) => this.switchOn(input),
			resetSpend: async ({ poolId }) => {
				const reset = await this.spend.reset(poolId);
				if (reset.ok) await this.changed();
				return reset;
			}
		};
	}

	/**
	 * Sends a run; for a pool's paid member, its price is counted first (within the cap, or not
	 * sent) and given back when the server refuses the run for certain.
	 */
	private async submitCounted(runs: PoolRunPort, input: SubmitRunInput): Promise<Result<WorkflowRun, SubmitRunError>> {
		if (!input.pool) return runs.submit(input);
		const held = await this.spend.commit(input.pool.poolId, input.profileId);
		if (!held.ok) return fail({ kind: 'error', error: held.error, runId: null });
		if (held.value === null) return runs.submit(input);
		// The run's id is chosen here, so what it holds is kept under it before anything is sent.
		const runId = input.runId ?? crypto.randomUUID();
		await this.spend.hold(runId, held.value);
		const sent = await runs.submit({ ...input, runId });
		if (!sent.ok && refusedForCertain(sent.error)) await this.spend.refused(runId, held.value);
		await this.changed();
		return sent;
	}

	/**
	 * A pool run that ended settles the price it held. One that gives a price back does so in the
	 * pool's turn, queued before anything its end sets off there (a run never accepted is offered to
	 * the others next, and may be counted again): the cap sees the price given back first.
	 */
	private onRunEnd(run: WorkflowRun): void {
		if (!run.pool) return;
		const end = holdAtEnd(run);
		if (end === 'open') return;
		if (end === 'keep') void this.settleSpend(run);
		else void this.inTurn(run.pool.poolId, () => this.settleSpend(run));
	}

	private async settleSpend(run: WorkflowRun): Promise<void> {
		if (await this.spend.settle(run)) await this.changed();
	}

	/** How many runs the pool takes at once now (0 when it is gone): its members that are on, each one running and one waiting. */
	async capacity(poolId: string): Promise<number> {
		if (!this.known) this.known = new Map((await this.repo.list()).map((p) => [p.id, p]));
		return poolCapacity(this.known.get(poolId));
	}

	/**
	 * A run the form made for `input.profileId` (a sweep's cell), sent through the pool instead and
	 * answered as a profile's run is: the pool's refusals read as a refused submit.
	 */
	async submitAsProfileRun(input: SubmitRunInput, poolId: string): Promise<Result<WorkflowRun, SubmitRunError>> {
		const { profileId, pool: _ignored, ...run } = input;
		void _ignored;
		const sent = await this.submit({ ...run, poolId, pin: null, sourceProfileId: profileId });
		return sent.ok ? sent : fail(asSubmitError(sent.error));
	}

	/** Takes a deleted profile out of every pool it was in. */
	async removeProfile(profileId: string): Promise<void> {
		for (const pool of await this.repo.list())
			if (pool.members.some((m) => m.profileId === profileId))
				await this.repo.put({ ...pool, members: pool.members.filter((m) => m.profileId !== profileId), updatedAt: this.now() });
		await this.changed();
	}

	/** A member switched off (said gone, say) is sent runs again. */
	private async switchOn({ poolId, profileId }: { poolId: string; profileId: string }): Promise<Result<Pool>> {
		const pool = await this.repo.get(poolId);
		if (!pool) return fail(appError('not-found', 'This pool no longer exists.'));
		if (!pool.members.some((m) => m.profileId === profileId)) return fail(appError('not-found', 'That server is no longer in this pool.'));
		const on = {
			...pool,
			members: pool.members.map((m) => (m.profileId === profileId ? { ...m, enabled: true } : m)),
			updatedAt: this.now()
		};
		await this.store(on);
		return ok(on);
	}

	private async save(input: PoolInput): Promise<Result<Pool, PoolFieldErrors>> {
		const profileIds = new Set((await this.ctx.profiles.list()).map((p) => p.id));
		const previous = input.id ? await this.repo.get(input.id) : undefined;
		const made = poolFromInput(input, profileIds, previous, this.now(), () => crypto.randomUUID());
		if (!made.ok) return made;
		await this.store(made.value);
		return made;
	}

	private async store(pool: Pool): Promise<void> {
		await this.repo.put(pool);
		await this.changed();
	}

	private async remove(id: string): Promise<void> {
		await this.repo.remove(id);
		await this.changed();
	}

	private async changed(): Promise<void> {
		this.known = null;
		this.ctx.notifyTabs('pools-changed');
		await this.publish();
	}

	private async publish(): Promise<void> {
		this.ctx.emit({ type: 'pools', pools: await this.repo.list() });
	}

	/**
	 * One choice and send at a time per pool: a choice reads the members' queues, so runs sent at
	 * once (a sweep's window) would all see the same empty queue and all go to one member.
	 */
	private inTurn<T>(poolId: string, work: () => Promise<T>): Promise<T> {
		const previous = this.chains.get(poolId) ?? Promise.resolve();
		const next = previous.then(work);
		this.chains.set(
			poolId,
			next.catch(() => undefined)
		);
		return next;
	}

	private submit(input: SubmitPoolRunInput): Promise<Result<WorkflowRun, PoolRunError>> {
		return this.inTurn(input.poolId, () => this.submitNow(input));
	}

	private async submitNow(input: SubmitPoolRunInput): Promise<Result<WorkflowRun, PoolRunError>> {
		const pool = await this.repo.get(input.poolId);
		if (!pool) return fail({ kind: 'no-pool', message: 'This pool no longer exists: choose another place to run.' });
		const { poolId, pin, sourceProfileId, ...run } = input;
		void poolId;
		const placed = await this.placer.place(pool, { prompt: run.prompt, workflowId: run.workflowId, pin, exclude: [], sourceProfileId });
		if (!placed.ok) return placed;
		const { choice, prompt } = placed.value;
		const sent = await this.runs.submit({
			...run,
			prompt,
			profileId: choice.profileId,
			pool: { poolId: pool.id, poolName: pool.name, pinned: pin !== null, skipped: choice.skipped }
		});
		return sent.ok ? sent : fail({ kind: 'submit', error: sent.error, profileId: choice.profileId });
	}
}
