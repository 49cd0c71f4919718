/**
 * Runs moving between a pool's members, never on two at once:
 * - the person moves a waiting run: cancelled on its member, confirmed by that server, then sent to
 *   the other;
 * - a member's server confirms it forgot a waiting run (it came back without its queue): the run
 *   goes to the others by itself;
 * - the person says a member is gone (it does not answer, so it cannot confirm): it is switched
 *   off, its waiting runs go to the others, and what it was running ends lost. A run that started
 *   is never sent again unless the person runs it again. Its queue is read once more first: when it
 *   answers after all, its waiting runs move as the person moves one (cancel confirmed there).
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import type { RunError, WorkflowRun } from '../../core/protocol/workflow-run';
import type { WorkerContext } from '../../core/worker/context';
import type { HandOverInput, QueueView } from '../../workflows';
import type { GoneReport, MoveError, Pool } from '../protocol/pool';
import { noMemberWords } from '../rules/place-words';
import type { PoolPlacer } from './pool-placer';
import type { PoolRunPort } from './run-port';
import type { SeenQueues } from './seen-queues';

export interface MovesDeps {
	ctx: WorkerContext;
	runs: PoolRunPort;
	placer: PoolPlacer;
	seen: SeenQueues;
	pool(id: string): Promise<Pool | undefined>;
	savePool(pool: Pool): Promise<void>;
	/** Runs `work` after the pool's other choices: a move reads the queues as a new run does. */
	inTurn<T>(poolId: string, work: () => Promise<T>): Promise<T>;
	/** A run taken off its member: the price it held there is given back when its server confirmed the cancel (or kept). */
	settleSpend(run: WorkflowRun): Promise<void>;
	now(): number;
}

const started = (run: WorkflowRun) => run.startedAt !== undefined || run.status === 'running';

export class MemberMoves {
	/** Runs handled here once already: a lost run's events may come more than once. */
	private readonly handled = new Set<string>();

	constructor(private readonly deps: MovesDeps) {}

	/** Every run event: a waiting pool run its server says it forgot goes to the others. */
	onRun(run: WorkflowRun): void {
		if (!this.deps.ctx.isLeader() || !run.pool || run.movedTo || run.status !== 'lost' || started(run)) return;
		if (run.error?.kind !== 'lost' || this.handled.has(run.id)) return;
		this.handled.add(run.id);
		const why = run.error;
		void this.deps.inTurn(run.pool.poolId, async () => {
			await this.deps.seen.ready();
			// Its record may not know it started, but the pool's last look at that queue (before a reload too) saw it running: never sent twice.
			if (run.promptId !== null && this.deps.seen.runningOn(run.profileId).has(run.promptId)) return;
			await this.reoffer(run, why, 'gone');
		});
	}

	async move({ runId, to }: { runId: string; to: string | null }): Promise<Result<WorkflowRun, MoveError>> {
		const run = await this.deps.runs.getRun(runId);
		if (!run?.pool) return notMoved('This run was not sent by a pool.');
		if (to === run.profileId) return notMoved('The run already waits there.');
		if (run.status !== 'queued' || started(run)) return notMoved('Only a run still waiting in its server’s queue can be moved.');
		const moved = await this.deps.inTurn(run.pool.poolId, () => this.reoffer(run, null, 'cancel', to));
		return moved.ok ? moved : notMoved(moved.error.message);
	}

	async gone({ poolId, profileId }: { poolId: string; profileId: string }): Promise<Result<GoneReport>> {
		const pool = await this.deps.pool(poolId);
		if (!pool) return fail(appError('not-found', 'This pool no longer exists.'));
		const member = pool.members.find((m) => m.profileId === profileId);
		if (!member) return fail(appError('not-found', 'That server is no longer in this pool.'));
		const name = (await this.deps.ctx.profiles.get(profileId))?.name ?? 'The server';
		// Switched off first, so no new run is sent there meanwhile.
		if (member.enabled)
			await this.deps.savePool({
				...pool,
				members: pool.members.map((m) => (m.profileId === profileId ? { ...m, enabled: false } : m)),
				updatedAt: this.deps.now()
			});
		const mine = (await this.deps.runs.openRuns()).filter((r) => r.profileId === profileId && r.pool?.poolId === poolId);
		// The last look may be older than a run that started there since: when the server answers at all, its queue now is the word.
		await this.deps.runs.wake(profileId);
		const now = await this.deps.runs.queue(profileId);
		if (now.ok) return ok(await this.goneButAnswering(poolId, mine, now.value));
		const report: GoneReport = { answered: false, moved: 0, stopped: 0, stranded: 0, left: 0 };
		await this.deps.seen.ready();
		const seenRunning = this.deps.seen.runningOn(profileId);
		for (const run of mine) {
			if (run.status === 'submitting') continue; // its submit is on its way: its own answer settles it
			this.handled.add(run.id);
			if (started(run) || (run.promptId !== null && seenRunning.has(run.promptId))) {
				const ended = await this.deps.runs.handOver({ runId: run.id, how: 'gone', why: wentAwayWhileRunning(name), movedTo: null });
				if (ended.ok) report.stopped++;
				continue;
			}
			const moved = await this.deps.inTurn(poolId, () => this.reoffer(run, wentAway(name), 'gone'));
			if (moved.ok) report.moved++;
			else report.stranded++;
		}
		return ok(report);
	}

	/**
	 * Said gone, yet it answered: it stays off, and its runs are moved as the person moves one: those
	 * still waiting in its queue are cancelled there (confirmed) and sent elsewhere; the rest (running
	 * there, or no longer listed: ended, read from its history as usual) go on there.
	 */
	private async goneButAnswering(poolId: string, mine: WorkflowRun[], queue: QueueView): Promise<GoneReport> {
		const report: GoneReport = { answered: true, moved: 0, stopped: 0, stranded: 0, left: 0 };
		const waiting = new Set(queue.pending.map((j) => j.promptId));
		for (const run of mine) {
			if (run.status === 'submitting') continue;
			if (started(run) || run.promptId === null || !waiting.has(run.promptId)) {
				report.left++;
				continue;
			}
			const moved = await this.deps.inTurn(poolId, () => this.reoffer(run, null, 'cancel'));
			if (moved.ok) report.moved++;
			else report.left++;
		}
		return report;
	}

	/**
	 * Sends a waiting run to another member: the choice first (nothing is taken off its server when no
	 * other can run it), then the hand-over (confirmed gone there), then the submit as a new run.
	 */
	private async reoffer(
		run: WorkflowRun,
		why: RunError | null,
		how: 'cancel' | 'gone',
		to: string | null = null
	): Promise<Result<WorkflowRun>> {
		const placement = run.pool!;
		const pool = await this.deps.pool(placement.poolId);
		if (!pool) return fail(appError('not-found', 'The pool that sent this run no longer exists.'));
		const from = run.profileId;
		const fromName = (await this.deps.ctx.profiles.get(from))?.name ?? 'its server';
		const placed = await this.deps.placer.place(pool, {
			prompt: run.prompt,
			workflowId: run.workflowId,
			pin: to,
			exclude: [{ profileId: from, message: `The run is moving off ${fromName}.` }],
			// Its input files are on the member it leaves; one that is gone cannot give them, and the names stay as they are.
			sourceProfileId: how === 'cancel' ? from : null
		});
		if (!placed.ok) {
			const words = placed.error.kind === 'no-member' ? noMemberWords(placed.error.message, placed.error.skipped) : placed.error.message;
			// A member gone with runs no other can take: they end lost, saying why, rather than wait for ever.
			if (how === 'gone' && why)
				await this.deps.runs.handOver({ runId: run.id, how: 'gone', why: { ...why, message: `${why.message} ${words}` }, movedTo: null });
			return fail(appError('invalid-input', words));
		}
		const { choice, prompt } = placed.value;
		const movedTo = { runId: crypto.randomUUID(), promptId: crypto.randomUUID(), profileId: choice.profileId };
		const handOver: HandOverInput =
			how === 'cancel' ? { runId: run.id, how, movedTo } : { runId: run.id, how, why: why ?? wentAway(fromName), movedTo };
		const off = await this.deps.runs.handOver(handOver);
		if (!off.ok) return off;
		// Before the run it becomes is counted: moved off a paid member with the cancel confirmed, its price there is free again.
		await this.deps.settleSpend(off.value);
		const sent = await this.deps.runs.submit({
			profileId: choice.profileId,
			workflowId: run.workflowId,
			title: run.title,
			prompt,
			seeds: run.seeds,
			runId: movedTo.runId,
			promptId: movedTo.promptId,
			...(run.sweep ? { sweep: run.sweep } : {}),
			pool: {
				poolId: pool.id,
				poolName: pool.name,
				pinned: to !== null,
				skipped: choice.skipped,
				movedFrom: {
					runId: run.id,
					profileId: from,
					why: how === 'cancel' ? 'moved by you' : (why?.title ?? 'its server went away').toLowerCase()
				}
			}
		});
		if (sent.ok) return sent;
		const error = sent.error;
		return fail(error.kind === 'rejected' ? appError('invalid-input', error.message) : error.error);
	}
}

function notMoved(message: string): Result<never, MoveError> {
	return fail({ kind: 'not-moved', message });
}

function wentAway(name: string): RunError {
	return {
		kind: 'lost',
		title: 'Its server went away',
		message: `You said ${name} is gone while this run waited there: it was sent to another member of the pool.`
	};
}

function wentAwayWhileRunning(name: string): RunError {
	return {
		kind: 'lost',
		title: 'Its server went away',
		message: `You said ${name} is gone while this run ran there. It was not sent again: run it again to send it to another member.`
	};
}
