/** The workflow-runs part of the worker API. */
import type { ImportResult, SavedWorkflow, StopOutcome } from './library';
import type { SurfaceKind } from './surface-kind';
import type { BundleApi } from './bundle';
import type { AppError, Result } from '../../core/protocol/errors';
import type { NodeDefinitions } from './object-info';
import type { NodeProblems, RunError, RunPlacement, WorkflowRun } from '../../core/protocol/workflow-run';
import type { ApiPrompt, FileRef } from './workflow-api';

export type { SavedWorkflow };

export type UploadPhase = 'hashing' | 'checking' | 'uploading' | 'done';
export type UploadProgress = (phase: UploadPhase, loaded: number, total: number) => void;

/** A chosen file as the service now has it: the name a workflow input references, and how it got there. */
export interface UploadedInput {
	name: string;
	subfolder: string;
	type: FileRef['type'];
	hash: string;
	via: 'from-hash' | 'upload';
	uploadedBytes: number;
}

export interface ObjectInfoView {
	nodes: NodeDefinitions;
	fetchedAt: number;
	fromCache: boolean;
	/** Why a fresh copy could not be fetched, when the cached one is shown. */
	problem?: AppError;
	/**
	 * The service publishes no node definitions (a v2 deployment): `nodes` is empty and the form is
	 * drawn from the workflow's own values (`domain/object-info-inferred.ts`).
	 */
	none?: true;
}

export type SubmitRunError =
	| { kind: 'rejected'; message: string; problems: NodeProblems; status?: number; requestId?: string; runId: string }
	| { kind: 'error'; error: AppError; runId: string | null };

/** What a Cancel of many jobs did to one of them, read back from its server; or why it could not be asked. */
export type JobCancelResult = { promptId: string; outcome: StopOutcome } | { promptId: string; problem: string };

/** A Cancel of many jobs: one batch call (`POST /api/jobs/cancel`) or one request per job, and each job's result. */
export interface CancelManyReport {
	via: 'batch' | 'one-by-one';
	jobs: JobCancelResult[];
}

/** What a delete from a server's own history did, read back: the ids it no longer has, and those it still lists. */
export interface ServerHistoryDelete {
	deleted: string[];
	kept: string[];
}

export interface QueueEntry {
	promptId: string;
	position: number;
	runId: string | null;
	title: string;
}

export interface QueueView {
	running: QueueEntry[];
	pending: QueueEntry[];
}

/** A workflow run to submit: the API-format prompt, and the seeds it was given (shown on the run). */
export interface SubmitRunInput {
	profileId: string;
	workflowId: string | null;
	title: string;
	prompt: ApiPrompt;
	seeds: Record<string, number>;
	/** Ids chosen by the caller and stored before this call (a sweep's cell): a resend after a reload reuses them. */
	runId?: string;
	promptId?: string;
	/** The run is a cell of this sweep. */
	sweep?: { id: string; cell: number };
	/** A pool chose this profile for the run. */
	pool?: RunPlacement;
}

/**
 * A run taken off its server so that a pool can send it elsewhere (`run-handover.ts`): `cancel` a
 * waiting job there and wait for that server to confirm it; `gone`: the server forgot the job, or
 * the person says the server is gone, and the run ends lost with `why`. `movedTo` names the run
 * that replaces it (only for a job that never started).
 */
export type HandOverInput =
	| { runId: string; how: 'cancel'; movedTo: NonNullable<WorkflowRun['movedTo']> }
	| { runId: string; how: 'gone'; why: RunError; movedTo: WorkflowRun['movedTo'] | null };

export interface SaveWorkflowInput {
	id?: string;
	name: string;
	prompt: ApiPrompt;
	ui?: SavedWorkflow['ui'];
	notes?: string[];
	missing?: SavedWorkflow['missing'];
	/** Whose cached node definitions write the prompt's values back into a saved `ui`. */
	profileId?: string;
}

export interface WorkflowApi extends BundleApi {
	/** The profile's node definitions; with `types`, those types' alone (what one workflow uses). */
	objectInfo(input: { profileId: string; refresh?: boolean; types?: string[] }): Promise<Result<ObjectInfoView>>;
	/** Which surface this profile's runs go through (a Cloud profile: v2 where its service offers it). */
	workflowSurface(input: { profileId: string }): Promise<Result<SurfaceKind>>;
	listWorkflows(input: Record<string, never>): Promise<SavedWorkflow[]>;
	getWorkflow(input: { id: string }): Promise<SavedWorkflow | null>;
	saveWorkflow(input: SaveWorkflowInput): Promise<SavedWorkflow>;
	duplicateWorkflow(input: { id: string }): Promise<SavedWorkflow | null>;
	deleteWorkflow(input: { id: string }): Promise<void>;
	/** A dropped or picked file; UI-format workflows convert with `profileId`'s node definitions. */
	importFile(input: { file: File; profileId: string | null }): Promise<ImportResult>;
	/** Pasted JSON, API or UI format. */
	importText(input: { text: string; profileId: string | null }): Promise<ImportResult>;
	/**
	 * Hashes and sends a chosen file. With `operationId`, `cancelOperation` stops it (comlink cannot
	 * pass an AbortSignal): the answer is then a `cancelled` error.
	 */
	uploadInput(input: {
		profileId: string;
		uploadId: string;
		file: File;
		maskFor?: FileRef;
		operationId?: string;
	}): Promise<Result<UploadedInput>>;
	submitRun(input: SubmitRunInput): Promise<Result<WorkflowRun, SubmitRunError>>;
	listRuns(input: Record<string, never>): Promise<WorkflowRun[]>;
	getRun(input: { id: string }): Promise<WorkflowRun | null>;
	deleteRun(input: { id: string }): Promise<void>;
	/**
	 * Cancels many jobs of one profile, running or waiting: in one batch call where the server has one
	 * (`POST /api/jobs/cancel`), else one by one (a waiting job by the queue delete, a running one as `stopJob`);
	 * each job's result as read back from the server.
	 */
	cancelJobs(input: { profileId: string; promptIds: string[] }): Promise<Result<CancelManyReport>>;
	/** Whether this profile's server keeps a history that Runboard can delete (ComfyUI's `POST /history` delete). */
	deletesServerHistory(input: { profileId: string }): Promise<boolean>;
	/** Deletes finished jobs from the server's own history (not this device's record), read back. */
	deleteServerHistory(input: { profileId: string; promptIds: string[] }): Promise<Result<ServerHistoryDelete>>;
	/** Cancels one job, running or waiting, by the best route its server has; says what the server did. */
	stopJob(input: { profileId: string; promptId: string }): Promise<Result<StopOutcome>>;
	/**
	 * Cancels one run's job by the best route its server has; says what the server did. `behind`: an
	 * interrupt to the ComfyUI behind a self-hosted proxy instead (offered when the proxy does not stop jobs).
	 */
	stopRun(input: { runId: string; behind?: boolean }): Promise<Result<StopOutcome>>;
	/** Interrupts a running job (between nodes). */
	interrupt(input: { profileId: string; promptId?: string }): Promise<Result<void>>;
	queue(input: { profileId: string }): Promise<Result<QueueView>>;
	/** The bytes of a run's output, from the cache or fetched without the key reaching storage. */
	output(input: { runId: string; index: number }): Promise<Result<Blob>>;
	/** An input image the service already has (LoadImage's list), for a preview. */
	inputImage(input: { profileId: string; name: string }): Promise<Result<Blob>>;
}

export type WorkflowEvent =
	| { type: 'run'; run: WorkflowRun }
	| { type: 'run-deleted'; id: string }
	| { type: 'preview'; runId: string | null; nodeId: string | null; mime: string; bytes: ArrayBuffer }
	| { type: 'upload-progress'; uploadId: string; phase: UploadPhase; loaded: number; total: number };
