/**
 * The workflow run's record, part of the run kernel (see run-kernel.ts): one record per workflow
 * job in IndexedDB, with a schema version so stored records can be migrated. Types only; the rules
 * that move it are the workflow feature's (`workflows/rules/run-record.ts`, `run-reducer.ts`).
 * The prompt and file reference types are here because the record carries them: the workflow
 * service's wire types (`workflows/protocol/workflow-api.ts`) re-export them.
 */

/** A link from another node's output: `[node_id, output_slot]`. */
export type NodeLink = [string, number];

/** One node of a workflow in API format. */
export interface ApiNode {
	class_type: string;
	inputs: Record<string, unknown>;
	_meta?: { title?: string };
}

/** A workflow in API format: node id to node. */
export type ApiPrompt = Record<string, ApiNode>;

export interface FileRef {
	filename: string;
	subfolder: string;
	type: 'input' | 'output' | 'temp';
	/** v2: the short-lived content URL the service gave, and until when it works (`url_expires_at`). */
	link?: { url: string; expiresAt: string };
	/** v2: what the output is called (its `name`), shown instead of the asset id in `filename`. */
	label?: string;
	/** v2 file outputs: what the service said the content is, and how big. */
	contentType?: string;
	sizeBytes?: number;
}

export const RUN_SCHEMA_VERSION = 1;

/**
 * `cancelled`: a cancel the user asked for and the server confirmed. `interrupted`: the server
 * stopped the job between nodes (`execution_interrupted`), keeping what had finished. `lost`: the
 * server no longer knows the job (it restarted, or never accepted the submit); `error` says which.
 */
export type RunStatus = 'submitting' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'interrupted' | 'lost';

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
	/** A cell of a sweep: the sweep's id and the cell's index in it. */
	sweep?: { id: string; cell: number };
	/** Sent through a pool: which pool chose this run's profile, and why the other members were passed over. */
	pool?: RunPlacement;
	/**
	 * The pool took this run off its server (gone from there, confirmed by the server or said by the
	 * person, or cancelled there to move it) and sent it to another member as the run `runId`.
	 */
	movedTo?: { runId: string; promptId: string; profileId: string };
}

/** Where a pool sent a run (its `profileId` is the member's); each member passed over says why. */
export interface RunPlacement {
	poolId: string;
	poolName: string;
	pinned: boolean;
	skipped: Array<{ profileId: string; reason: string; message: string }>;
	/** The run this one replaces: it waited on another member, and was taken off it first. */
	movedFrom?: { runId: string; profileId: string; why: string };
}

/** A v2 job past its retention deadline (`expired`): shown as such; what was saved here stays. */
export const EXPIRED_EXCEPTION = 'JobExpired';

/** A `failed` run the server reported `expired`: it no longer knows the job. */
export function isExpired(run: Pick<WorkflowRun, 'status' | 'error'>): boolean {
	return run.status === 'failed' && run.error?.exceptionType === EXPIRED_EXCEPTION;
}

/** Why a run is lost when its server has no job with its id: the submit never reached it (or was never taken). */
export const NEVER_ACCEPTED: RunError = {
	kind: 'lost',
	title: 'Never accepted',
	message: 'The server never accepted this run (it has no job with this id). Its inputs are kept: run it again.'
};

/**
 * A run its server never took, for certain: it ended "Never accepted" and was never seen waiting or
 * running there (a run the server once listed, then forgot, is not one).
 */
export function neverAccepted(run: Pick<WorkflowRun, 'status' | 'error' | 'queuedAt' | 'startedAt'>): boolean {
	return (
		run.status === 'lost' &&
		run.error?.kind === NEVER_ACCEPTED.kind &&
		run.error.title === NEVER_ACCEPTED.title &&
		run.queuedAt === undefined &&
		run.startedAt === undefined
	);
}
