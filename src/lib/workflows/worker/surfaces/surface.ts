/**
 * One interface for every surface a workflow run can live on: the cloud service's v1 API, a
 * local ComfyUI, and (issue 18) the v2 jobs API. A surface submits, reads a job's state (the
 * polling side of watching; live events come from the profile's socket, see `liveEvents`),
 * lists the jobs it is running, cancels, fetches output bytes and takes uploads. The run tracker
 * and the pure run reducer are shared by all of them; which routes a surface uses is decided by
 * its `capabilities` alone. See docs/ARCHITECTURE.md, "Workflow surfaces".
 */
import type { AppError, Result } from '../../../core/protocol/errors';
import type { NodeDefinitions } from '../../protocol/object-info';
import type { ApiPrompt, FileRef, HistoryEntry, JobState, NodeErrors } from '../../protocol/workflow-api';
import type { SurfaceCapabilities, SurfaceKind } from './capabilities';
import type { StopOutcome } from '../../rules/stop-outcome';
import type { CancelManyReport, ServerHistoryDelete } from '../../protocol/api';
export type { StopOutcome, StopRoute } from '../../rules/stop-outcome';

import type { JsonObject } from '../../../core/protocol/json';
import type { V2StreamEvent } from '../../protocol/v2-events';
import type { V2Job, V2Output } from '../../protocol/workflow-v2';

export interface SubmitRequest {
	prompt: ApiPrompt;
	/** Our id for the job, stored with the run before the first byte is sent; v1 and ComfyUI accept it as `prompt_id`. */
	promptId: string;
	/**
	 * Stored with the run before the first byte is sent and reused on every retry of the same body;
	 * sent as `Idempotency-Key` where the surface honours one (v2). v1 and ComfyUI ignore it.
	 */
	idempotencyKey: string;
	/** The socket's client id, so a runtime that tells only the submitter sends its events to us. */
	clientId: string;
	/** The workflow uses partner nodes: the surface adds the key where its `extra_data` wants it. */
	partner: boolean;
	/**
	 * `extra_data.extra_pnginfo` as ComfyUI's editor sends it (`{workflow: <UI format>}`), written into
	 * the outputs' metadata. v1 and local runtimes send it; the v2 API accepts no such field: never send it there.
	 */
	extraPngInfo?: JsonObject;
}

export type SubmitFailure =
	{ kind: 'rejected'; message: string; nodeErrors: NodeErrors; status: number; requestId?: string } | { kind: 'error'; error: AppError };

/** Follow-up links a service gave for a job (v2 `urls`, resolved against the answer's URL): followed, never built. */
export interface JobLinks {
	self: string;
	events: string | null;
	cancel: string | null;
}

/** A job as a surface knows it: its id, and on surfaces that give them, the links to follow. */
export interface JobHandle {
	promptId: string;
	links?: JobLinks;
}

/**
 * What one read of a job found, for the tracker to fold into the run with the reducer. The v2
 * adapter adds a reading that carries its job record (status, progress, outputs) beside these.
 */
export type JobReading =
	/** The service has no job with this id: not accepted (yet), or expired. */
	| { kind: 'not-found' }
	/** The job-status route's answer; once terminal, the history with the outputs (null when it could not be read). */
	| { kind: 'status'; state: JobState; history: HistoryEntry | null; canceling?: boolean }
	/** No job-status route: the history is the state. */
	| { kind: 'history'; entry: HistoryEntry }
	/** No history yet, and the job is in the queue: running there, or waiting its turn. */
	| { kind: 'waiting'; running: boolean }
	/** No history, and not in the queue: deleted while pending (such a job never reaches the history). */
	| { kind: 'vanished' };

/** A job the service is running or holding, ours or another client's. */
export interface ActiveJob {
	promptId: string;
	position: number;
	running: boolean;
	/** The workflow, where the service lists it. */
	prompt?: ApiPrompt;
}

/** What offering a file's hash found: the service has the content, does not, or has no such route. */
export type HashOffer = { kind: 'known'; name: string } | { kind: 'unknown' } | { kind: 'unsupported' };

export interface FileUpload {
	file: File;
	/** The name to store it under (see `assetName`). */
	name: string;
	/** A mask, painted over an input the service already has. */
	mask?: { originalRef: FileRef };
	/** Sent as `Idempotency-Key` where the surface honours one (v2 `POST /assets`); stored before the first byte. */
	idempotencyKey?: string;
	expectedHash?: string;
	onProgress(loaded: number, total: number): void;
	signal?: AbortSignal;
}

/** Where an uploaded file now is: the name (and placement) a workflow input references. */
export interface StoredFile {
	name: string;
	subfolder: string;
	type: FileRef['type'];
}

export interface WorkflowSurface {
	readonly kind: SurfaceKind;
	readonly profileId: string;
	readonly capabilities: Readonly<SurfaceCapabilities>;
	/**
	 * How live events reach the tracker. `profile-socket`: the leader's one socket per active
	 * profile (v1 and ComfyUI), routed by `prompt_id`. `job-stream` (v2): an SSE stream per job,
	 * opened by the leader's `V2StreamWatch` (one per job per browser).
	 */
	readonly liveEvents: 'profile-socket' | 'job-stream';
	/** Whether `objectInfo` can answer: a v2 deployment endpoint runs one fixed graph and has no node definitions. */
	readonly servesNodeDefinitions: boolean;
	objectInfo(): Promise<Result<NodeDefinitions>>;
	submit(request: SubmitRequest): Promise<Result<JobHandle, SubmitFailure>>;
	/** The polled truth of one job. An error means "ask again later" (offline, a hiccup). */
	read(job: JobHandle): Promise<Result<JobReading>>;
	/** Jobs running and waiting, with their positions. */
	activeJobs(): Promise<Result<ActiveJob[]>>;
	/** Cancels waiting or running jobs. */
	cancel(jobs: JobHandle[]): Promise<Result<void>>;
	/** Cancels many jobs: one batch call where the server has one, else one by one; each job's result read back. */
	cancelMany(jobs: JobHandle[]): Promise<Result<CancelManyReport>>;
	/** Deletes finished jobs from the server's own history, read back (only where `capabilities.historyDelete`). */
	deleteHistory(jobs: JobHandle[]): Promise<Result<ServerHistoryDelete>>;
	/** The server's version where it says one (`/system_stats`), else null. */
	serverVersion(): Promise<Result<string | null>>;
	/** Cancels one job by the best route the server has, and reports what the server did. */
	stop(job: JobHandle): Promise<Result<StopOutcome>>;
	/** An interrupt sent past the server to the ComfyUI behind it (the self-hosted proxy's profile names it), read back. */
	interruptBehind?(job: JobHandle): Promise<Result<StopOutcome>>;
	/** Stops the running job (between nodes); without a job, whatever runs. */
	interrupt(job?: JobHandle): Promise<Result<void>>;
	/** The bytes of an output, without the key reaching a storage host. */
	outputBytes(ref: FileRef): Promise<Result<Blob>>;
	/** Offers content by its BLAKE3 hash so its bytes need not be sent. */
	offerHash(hash: string, name: string, mime: string, signal?: AbortSignal): Promise<Result<HashOffer>>;
	uploadFile(upload: FileUpload): Promise<Result<StoredFile>>;
}

/** How following one job's stream ended. */
export type JobStreamEnd =
	{ kind: 'ended' } | { kind: 'refused'; retryAfterMs: number | null } | { kind: 'gone' } | { kind: 'error'; error: AppError };

/** A surface whose live events come over a stream per job (`liveEvents: 'job-stream'`, the v2 API). */
export interface JobStreamSurface extends WorkflowSurface {
	readonly liveEvents: 'job-stream';
	/** A newer stream of a job starves an older one still open on the server (the self-hosted proxy in front of ComfyUI 0.3.64). */
	readonly streamsStarve: boolean;
	/** The job's own record, read by id (null when the service has no such job). */
	readJob(job: JobHandle): Promise<Result<V2Job | null>>;
	/** A `text` output's content, read once. */
	textOf(output: Pick<V2Output, 'id' | 'size_bytes'>, signal?: AbortSignal): Promise<string | undefined>;
	stream(job: JobHandle, onEvent: (event: V2StreamEvent) => void, onActivity: () => void, signal: AbortSignal): Promise<JobStreamEnd>;
}

/** Whether a surface's live events come over a stream per job: the capability, not the class, decides. */
export function followsJobStreams(surface: WorkflowSurface): surface is JobStreamSurface {
	return surface.liveEvents === 'job-stream';
}
