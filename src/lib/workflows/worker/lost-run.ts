/** The reasons a run the server no longer knows is lost (never "cancelled"), and the lost run itself. */
import type { RunError, WorkflowRun } from '../rules/run-record';

export { NEVER_ACCEPTED } from '../../core/protocol/workflow-run';

export const RESTARTED: RunError = {
	kind: 'lost',
	title: 'The server restarted',
	message: 'The server restarted while this ran, and forgot the job. Its inputs are kept: run it again.'
};
export const GONE_FROM_QUEUE: RunError = {
	kind: 'lost',
	title: 'Gone from the queue',
	message:
		'The job left the server’s queue without running: the server restarted, or it was removed elsewhere. Its inputs are kept: run it again.'
};

/** A run the server no longer knows: lost, with the reason; never "cancelled". */
export function lost(run: WorkflowRun, now: number, error: RunError): WorkflowRun {
	return {
		...run,
		status: 'lost',
		finishedAt: run.finishedAt ?? now,
		error,
		progress: { ...run.progress, current: null, step: null, finishing: false }
	};
}
