/** What a Cancel did on the server, and how to say it. See `WorkflowSurface.stop`. */
import type { RunStatus } from './run-record';
import type { JobStatus } from '../protocol/workflow-v2';

export type { StopOutcome, StopRoute } from '../protocol/library';
import type { StopOutcome, StopRoute } from '../protocol/library';

/** The words for a Cancel's outcome: what the server did, as read back from it. */
export function describeStop(outcome: StopOutcome): string {
	const how =
		'via' in outcome
			? outcome.via === 'job-cancel'
				? 'the server’s job cancel'
				: outcome.via === 'interrupt'
					? 'an interrupt'
					: outcome.via === 'interrupt-behind'
						? 'an interrupt to the ComfyUI behind the proxy'
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
		case 'not-stopped':
			return (
				'The server accepted the cancel but does not stop jobs: the job runs on, and is still followed here.' +
				(outcome.behind ? ` An interrupt sent to the ComfyUI behind it (${outcome.behind}) can stop it.` : '')
			);
		case 'ran-on':
			return 'The job ran to its end: the server accepted the cancel but does not stop jobs.';
	}
}

/** One read of a v2 job after its cancel was sent: the outcome, or `wait` to read it again. */
export function afterCancelRead(input: {
	/** The status the cancel answered with (null: no job in the answer). */
	answered: JobStatus | null;
	read: JobStatus;
	/** The job had started before the cancel. */
	hadStarted: boolean;
	via: StopRoute;
	/** Reads so far, and how many to make before saying it is still stopping. */
	attempt: number;
	checks: number;
	/** The ComfyUI behind a proxy, where an interrupt works. */
	behind: string | null;
}): StopOutcome | 'wait' {
	const { read, via } = input;
	if (read === 'canceled') return input.hadStarted ? { kind: 'interrupted', via } : { kind: 'removed', via };
	if (read === 'succeeded' || read === 'failed' || read === 'expired') return { kind: 'finished-first' };
	// Still `queued` after the cancel: the server kept the job (the proxy in front of ComfyUI 0.3.64 answers `queued`).
	if (read === 'queued') return { kind: 'still-waiting', via };
	// The contract keeps a cancelled job `canceling` until it ends; `running` after a `canceling` answer means the
	// server forgot the cancel (the proxy in front of ComfyUI 0.3.64: the job runs to its end).
	if (read === 'running' && input.answered === 'canceling' && via === 'job-cancel')
		return { kind: 'not-stopped', via, behind: input.behind };
	return input.attempt >= input.checks ? { kind: 'stopping', via } : 'wait';
}

/**
 * A stop still under way (`stopping`) is settled by how the run then ended: one that succeeded was in
 * its last node and finished before the cancel took effect; one the server stopped was interrupted.
 */
export function settleStop(outcome: StopOutcome, status: RunStatus): StopOutcome {
	if (outcome.kind === 'not-stopped') {
		if (status === 'succeeded' || status === 'failed') return { kind: 'ran-on' };
		if (status === 'interrupted' || status === 'cancelled') return { kind: 'interrupted', via: outcome.via };
		return outcome;
	}
	if (outcome.kind !== 'stopping') return outcome;
	if (status === 'succeeded') return { kind: 'finished-first' };
	if (status === 'interrupted' || status === 'cancelled') return { kind: 'interrupted', via: outcome.via };
	return outcome;
}
