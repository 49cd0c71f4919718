/**
 * The rules of a workflow run's record: the order its status moves in, when it is over, how far it
 * has come. The record's types are the run kernel's (`core/protocol/workflow-run.ts`), re-exported
 * here for the feature's own code.
 */
import { RUN_SCHEMA_VERSION, type ApiPrompt, type RunStatus, type WorkflowRun } from '../../core/protocol/workflow-run';

export { EXPIRED_EXCEPTION, RUN_SCHEMA_VERSION, isExpired } from '../../core/protocol/workflow-run';
export type {
	NodeProblems,
	OutputKind,
	RunError,
	RunOutput,
	RunStatus,
	WorkflowProgress,
	WorkflowRun
} from '../../core/protocol/workflow-run';

export const TERMINAL: ReadonlySet<RunStatus> = new Set(['succeeded', 'failed', 'cancelled', 'interrupted', 'lost']);
const ORDER: Record<RunStatus, number> = {
	submitting: 0,
	queued: 1,
	running: 2,
	succeeded: 3,
	failed: 3,
	cancelled: 3,
	interrupted: 3,
	lost: 3
};

export function isTerminal(status: RunStatus): boolean {
	return TERMINAL.has(status);
}

/** Status only moves forward: a late `pending` poll cannot pull a running job back to queued. */
export function advances(from: RunStatus, to: RunStatus): boolean {
	return !isTerminal(from) && ORDER[to] >= ORDER[from];
}

/** A run whose cancel was asked for but which ended otherwise (succeeded or failed first). */
export function finishedBeforeCancel(run: Pick<WorkflowRun, 'status' | 'canceling'>): boolean {
	return run.canceling === true && (run.status === 'succeeded' || run.status === 'failed');
}

export function newWorkflowRun(init: {
	id: string;
	profileId: string;
	title: string;
	workflowId: string | null;
	prompt: ApiPrompt;
	seeds: Record<string, number>;
	partner: boolean;
	now: number;
}): WorkflowRun {
	return {
		schemaVersion: RUN_SCHEMA_VERSION,
		kind: 'workflow',
		...init,
		promptId: null,
		status: 'submitting',
		createdAt: init.now,
		progress: { done: [], total: Object.keys(init.prompt).length, current: null, step: null, finishing: false },
		outputs: [],
		notifications: []
	};
}

/** How many nodes are done: those known by id, or the server's count when it reports only counts. */
export function nodesDone(run: Pick<WorkflowRun, 'progress'>): number {
	return Math.max(run.progress.done.length, run.progress.counted ?? 0);
}

/** Whole-run progress in [0, 1]: finished nodes plus the fraction of the current node's steps. */
export function runFraction(run: WorkflowRun): number {
	if (run.status === 'succeeded') return 1;
	const { total, step, current } = run.progress;
	if (total === 0) return 0;
	const partial = step && step.node === current && step.max > 0 ? step.value / step.max : 0;
	return Math.min(1, (nodesDone(run) + partial) / total);
}
