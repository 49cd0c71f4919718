/**
 * The words for a Cancel of many jobs: a line for the whole, and one per job, each saying what the
 * server confirmed (read back from its queue and history), never what was asked.
 */
import type { CancelManyReport, JobCancelResult } from '../protocol/api';

const jobs = (n: number) => `${n} job${n === 1 ? '' : 's'}`;

/** The server confirmed the job no longer runs or waits because of this cancel. */
export function confirmedCancelled(result: JobCancelResult): boolean {
	return 'outcome' in result && (result.outcome.kind === 'removed' || result.outcome.kind === 'interrupted');
}

/** One job's result, short: what its server did. */
export function jobCancelWords(result: JobCancelResult): string {
	if (!('outcome' in result)) return `not asked: ${result.problem}`;
	const outcome = result.outcome;
	switch (outcome.kind) {
		case 'removed':
			return 'removed from the queue (confirmed)';
		case 'interrupted':
			return 'stopped (confirmed); outputs of finished nodes are kept';
		case 'stopping':
			return 'stop sent: still running, it stops when its current node ends';
		case 'finished-first':
			return 'had already ended: nothing to cancel';
		case 'still-waiting':
			return 'still waiting: the server kept it';
		case 'not-stopped':
			return 'runs on: the server accepted the cancel but does not stop jobs';
		case 'ran-on':
			return 'ran to its end';
	}
}

/** The whole: how the server was asked and how many it confirmed. */
export function cancelManyWords(report: CancelManyReport, server = 'The server'): string {
	const how = report.via === 'batch' ? 'in one batch call' : 'one by one';
	const confirmed = report.jobs.filter(confirmedCancelled).length;
	const total = report.jobs.length;
	if (total === 0) return `${server} was asked to cancel nothing.`;
	const rest = total - confirmed;
	return `${server} was asked to cancel ${jobs(total)} ${how} and confirmed ${confirmed} cancelled${rest ? `; ${rest} not (see each job)` : ''}.`;
}
