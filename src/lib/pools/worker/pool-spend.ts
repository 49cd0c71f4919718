/**
 * Counting what a pool commits to paid members, durably and once: a run for a paid member adds its
 * price to the pool's record before it is sent, in one transaction with the read that checks the
 * cap (so two tabs sending at once never pass it together), and a run its server refused for
 * certain gives the price back. A run whose answer was lost on the way stays counted: the server
 * may have taken it (it is kept, and followed). What each run holds is kept until it ends
 * (`spend-holds.ts`): a run that then reads "Never accepted", or that was moved off the member after
 * its server confirmed the cancel before it started, gives its price back, once.
 */
import { appError, fail, ok, type AppError, type Result } from '../../core/protocol/errors';
import { isStorageFull } from '../../core/worker/quota';
import type { SubmitRunError } from '../../workflows';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import type { Pool } from '../protocol/pool';
import { spendCheck } from '../rules/spend';
import { holdAtEnd, type SpendHold } from '../rules/spend-hold';
import type { PoolRepo } from './pool-repo';
import type { SpendHolds } from './spend-holds';

export type { SpendHold } from '../rules/spend-hold';

export class PoolSpend {
	constructor(
		private readonly repo: PoolRepo,
		private readonly holds: SpendHolds,
		private readonly nameOf: (profileId: string) => Promise<string>,
		private readonly now: () => number
	) {}

	/** Counts a run for `profileId` in the pool: null for a free member (nothing to count), an error past the cap. */
	async commit(poolId: string, profileId: string): Promise<Result<SpendHold | null>> {
		const name = await this.nameOf(profileId);
		let outcome: Result<SpendHold | null> = ok(null);
		try {
			const after = await this.repo.changeSpend(poolId, (pool) => {
				const member = pool.members.find((m) => m.profileId === profileId);
				const check = member ? spendCheck(pool, member, name) : ({ kind: 'free' } as const);
				if (check.kind === 'free') return null;
				if (check.kind !== 'within') {
					// Another tab counted a run since this one was chosen.
					outcome = fail(appError('unavailable', check.message));
					return null;
				}
				outcome = ok({ poolId, profileId, cents: check.priceCents, since: pool.spentSince });
				return { spentCents: pool.spentCents + check.priceCents, spentSince: pool.spentSince };
			});
			if (!after) return fail(appError('not-found', 'This pool no longer exists: choose another place to run.'));
		} catch (error) {
			if (!isStorageFull(error)) throw error;
			return fail(appError('storage', `Not sent: the pool could not count this run’s price on this device. ${error.message}`));
		}
		return outcome;
	}

	/** Keeps what `runId` holds until it ends, so its end can give the price back (after a reload too). */
	hold(runId: string, hold: SpendHold): Promise<void> {
		return this.holds.keep(runId, hold);
	}

	/** The server refused the run for certain, as its submit answered: its price is given back and its hold dropped. */
	async refused(runId: string, hold: SpendHold): Promise<void> {
		await this.giveBack(hold);
		await this.holds.drop(runId);
	}

	/**
	 * A run that ended (or was handed over to another member): its price is given back when its end
	 * says for certain that the server never took it or confirmed its cancel before it started (once,
	 * whichever tab or call comes first); kept otherwise. True when this call gave a price back.
	 */
	async settle(run: Pick<WorkflowRun, 'id' | 'status' | 'error' | 'queuedAt' | 'startedAt' | 'movedTo'>): Promise<boolean> {
		const end = holdAtEnd(run);
		if (end === 'open') return false;
		const hold = end === 'keep' ? null : await this.holds.claim(run.id);
		if (hold) await this.giveBack(hold);
		await this.holds.drop(run.id);
		return hold !== null;
	}

	/** Its price is no longer counted (unless counting was reset since). */
	private async giveBack(hold: SpendHold): Promise<void> {
		await this.repo.changeSpend(hold.poolId, (pool) =>
			pool.spentSince === hold.since ? { spentCents: Math.max(0, pool.spentCents - hold.cents), spentSince: pool.spentSince } : null
		);
	}

	/** Counting starts again from 0, now. */
	async reset(poolId: string): Promise<Result<Pool, AppError>> {
		const after = await this.repo.changeSpend(poolId, () => ({ spentCents: 0, spentSince: this.now() }));
		return after ? ok(after) : fail(appError('not-found', 'This pool no longer exists.'));
	}
}

/**
 * Whether a submit's failure says for certain the server did not take the run: refused (a 402, a
 * full queue, a validation error), or never sent. A network error or a timeout after sending may
 * hide an accepted run: not certain.
 */
export function refusedForCertain(error: SubmitRunError): boolean {
	if (error.kind === 'rejected' || error.runId === null) return true;
	return !MAYBE_TAKEN.has(error.error.kind);
}

const MAYBE_TAKEN: ReadonlySet<string> = new Set(['network', 'timeout', 'outcome-unknown', 'unreadable-result']);
