/**
 * A run as Runboard keeps it: one record per workflow job (and, in the model-runs feature, per
 * model request) in IndexedDB, with a schema version so stored records can be migrated.
 */
import type { ApiPrompt, FileRef } from '../protocol/workflow-api';

export const RUN_SCHEMA_VERSION = 1;

/**
 * `cancelled`: a cancel the user asked for and the server confirmed. `interrupted`: the server
 * stopped the job between nodes (`execution_interrupted`), keeping what had finished. `lost`: the
 * server no longer knows the job (it restarted, or never accepted the submit); `error` says which.
 */
export type RunStatus = 'submitting' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'interrupted' | 'lost';

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

export interface RunError {
	kind: 'submit' | 'execution' | 'lost';
	title: string;
	message: string;
	exceptionType?: string;
	nodeId?: string;
	nodeType?: string;
	traceback?: string[];
	status?: number;
	requestId?: string;
}

/** `file`: v2 outputs with no preview (`file`, `latent`), a download with its name, size and type. */
export type OutputKind = 'image' | 'video' | 'audio' | 'file';

export interface RunOutput {
	nodeId: string;
	kind: OutputKind;
	ref: FileRef;
}

export interface WorkflowProgress {
	/** Node ids that finished or were cached: only grows. */
	done: string[];
	/** Of those, the ones the server reused from its cache (`execution_cached`); absent in records before the graph view. */
	cached?: string[];
	/** Nodes in the workflow: the denominator of whole-run progress. */
	total: number;
	/** v2: how many nodes the server counted finished, when it reports counts without ids; only grows. */
	counted?: number;
	current: string | null;
	step: { node: string; value: number; max: number } | null;
	/** The socket said the prompt finished (`executing` with no node); the terminal state is confirmed by polling. */
	finishing: boolean;
}

/** Problems the service reported per node at submit time (`node_errors`). */
export type NodeProblems = Record<string, Array<{ inputName?: string; message: string }>>;

export interface WorkflowRun {
	schemaVersion: typeof RUN_SCHEMA_VERSION;
	kind: 'workflow';
	id: string;
	profileId: string;
	title: string;
	workflowId: string | null;
	promptId: string | null;
	/** The workflow exactly as submitted: the inputs used. */
	prompt: ApiPrompt;
	/** Seeds used, by field id, so the run shows what it really ran with. */
	seeds: Record<string, number>;
	partner: boolean;
	status: RunStatus;
	createdAt: number;
	queuedAt?: number;
	startedAt?: number;
	finishedAt?: number;
	progress: WorkflowProgress;
	outputs: RunOutput[];
	notifications: string[];
	progressText?: { nodeId: string; text: string };
	/** Text outputs (ComfyUI's `text` in `executed` and history), by node, in the order they came. */
	texts?: Array<{ nodeId: string; text: string; /** v2: the output's `name`. */ name?: string }>;
	/** Where the server stopped an `interrupted` run. */
	interruptedAt?: { nodeId: string | null; nodeType: string | null };
	error?: RunError;
	nodeProblems?: NodeProblems;
	/** Started by another device or client and followed here (its inputs are what the queue showed). */
	elsewhere?: boolean;
	/** v2: the links the service gave for the job (`urls`, resolved), followed after a reload instead of built. */
	jobLinks?: { self: string; events: string | null; cancel: string | null };
	/**
	 * v2: the service said `canceling` (or a cancel was sent and the job still ran). Shown until the
	 * terminal state; kept after it, so a job that finished anyway says the cancel came too late.
	 */
	canceling?: boolean;
}

/** A v2 job past its retention deadline (`expired`): shown as such; what was saved here stays. */
export const EXPIRED_EXCEPTION = 'JobExpired';

export function isExpired(run: Pick<WorkflowRun, 'status' | 'error'>): boolean {
	return run.status === 'failed' && run.error?.exceptionType === EXPIRED_EXCEPTION;
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
