/**
 * Cancelling many jobs of one server and reading back what it did to each. A server with a batch
 * cancel gets one call; otherwise each job is asked for alone, waiting ones first (so that stopping
 * the running job does not start a selected waiting one before it is removed). What is reported is
 * always what the server's queue and history show afterwards, never what was asked.
 */
import { ok, type Result } from '../../../core/protocol/errors';
import type { HistoryEntry } from '../../protocol/workflow-api';
import type { CancelManyReport, JobCancelResult } from '../../protocol/api';
import type { ActiveJob, JobHandle, StopOutcome, StopRoute } from './surface';

/** What cancelling one job by one needs from a surface. */
export interface OneByOne {
	/** One job, by the best route the server has (the run page's Cancel). */
	stop(job: JobHandle): Promise<Result<StopOutcome>>;
}

/** Each job asked for alone, in order; a job that could not be asked says why, and the next is asked. */
export async function cancelOneByOne(surface: OneByOne, jobs: JobHandle[]): Promise<CancelManyReport> {
	const results: JobCancelResult[] = [];
	for (const job of jobs) {
		const outcome = await surface.stop(job);
		results.push(
			outcome.ok ? { promptId: job.promptId, outcome: outcome.value } : { promptId: job.promptId, problem: outcome.error.message }
		);
	}
	return { via: 'one-by-one', jobs: results };
}

/** Waiting jobs before running ones, each group in the order given. */
export function waitingFirst(jobs: JobHandle[], active: ReadonlyMap<string, ActiveJob>): JobHandle[] {
	const running = (j: JobHandle) => (active.get(j.promptId)?.running ? 1 : 0);
	return [...jobs].sort((a, b) => running(a) - running(b));
}

/** What a read of the queue after a cancel shows for one job that was active before it. */
export function settleOne(
	before: ActiveJob,
	after: ActiveJob | undefined,
	history: HistoryEntry | null | undefined,
	via: StopRoute
): StopOutcome {
	if (after) return after.running ? { kind: 'stopping', via } : { kind: 'still-waiting', via };
	if (!before.running) return { kind: 'removed', via };
	if (history?.status.messages.some(([type]) => type === 'execution_interrupted')) return { kind: 'interrupted', via };
	return history ? { kind: 'finished-first' } : { kind: 'interrupted', via };
}

/** Jobs not in the queue before the cancel had already ended (or never were there). */
export function notActive(jobs: JobHandle[], active: ReadonlyMap<string, ActiveJob>): JobCancelResult[] {
	return jobs.filter((j) => !active.has(j.promptId)).map((j) => ({ promptId: j.promptId, outcome: { kind: 'finished-first' } }));
}

export const reportOf = (via: CancelManyReport['via'], jobs: JobCancelResult[]): Result<CancelManyReport> => ok({ via, jobs });
