/** What a Cancel did on the server, and how to say it. See `WorkflowSurface.stop`. */
import type { RunStatus } from './run-record';

export type { StopOutcome, StopRoute } from '../protocol/library';
import type { StopOutcome } from '../protocol/library';

/** The words for a Cancel's outcome: what the server did, as read back from it. */
export function describeStop(outcome: StopOutcome): string {
	const how =
		'via' in outcome
			? outcome.via === 'job-cancel'
				? 'the server’s job cancel'
				: outcome.via === 'interrupt'
					? 'an interrupt'
					: 'a queue delete'
			: '';
	switch (outcome.kind) {
		case 'removed':
			return `Cancelled: the server removed the waiting job (${how}).`;
		case 'interrupted':
			return `Interrupted: the server stopped the job (${how}); the outputs of the nodes that finished are kept.`;
		case 'stopping':
			return `Sent ${how}: the server stops the job when its current node ends; a job in its last node will finish.`;
		case 'finished-first':
			return 'The job finished before the cancel took effect.';
		case 'still-waiting':
			return `The server kept the job in its queue after ${how}: it was not cancelled.`;
	}
}

/**
 * A stop still under way (`stopping`) is settled by how the run then ended: one that succeeded was in
 * its last node and finished before the cancel took effect; one the server stopped was interrupted.
 */
export function settleStop(outcome: StopOutcome, status: RunStatus): StopOutcome {
	if (outcome.kind !== 'stopping') return outcome;
	if (status === 'succeeded') return { kind: 'finished-first' };
	if (status === 'interrupted' || status === 'cancelled') return { kind: 'interrupted', via: outcome.via };
	return outcome;
}
