/**
 * Wire types of the workflow-execution service's HTTP surface (spec A), shared by the app, the
 * emulator and the tests. Pure types and constants: no DOM, no Node. Shapes the spec leaves open
 * follow the open-source ComfyUI server, which the v1 API mirrors.
 */

export type { ApiNode, ApiPrompt, FileRef, NodeLink } from '../../core/protocol/workflow-run';
import type { ApiPrompt, FileRef } from '../../core/protocol/workflow-run';

export interface SubmitRequest {
	prompt: ApiPrompt;
	client_id?: string;
	/** Client-chosen job id, accepted as ComfyUI does. */
	prompt_id?: string;
	extra_data?: {
		/** Required when the workflow contains partner nodes (`api_node: true`). */
		api_key_service_org?: string;
		extra_pnginfo?: { workflow?: unknown };
		[key: string]: unknown;
	};
	/** Accepted and ignored. */
	number?: number;
	/** Accepted and ignored. */
	front?: boolean;
}

/** One validation problem of one node input, as ComfyUI reports it. */
export interface ValidationError {
	type: string;
	message: string;
	details: string;
	extra_info: { input_name?: string; [key: string]: unknown };
}

export interface NodeError {
	errors: ValidationError[];
	dependent_outputs: string[];
	class_type: string;
}

export type NodeErrors = Record<string, NodeError>;

export interface SubmitAccepted {
	prompt_id: string;
	number: number;
	node_errors: NodeErrors;
}

export interface SubmitRejected {
	error: ValidationError;
	node_errors: NodeErrors;
}

export type SubmitResponse = SubmitAccepted | SubmitRejected;

export const JOB_STATES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface JobStatusResponse {
	status: JobState;
}

/** What an output node reports in `executed.output` and in history `outputs`. */
export interface NodeUiOutput {
	images?: FileRef[];
	video?: FileRef[];
	audio?: FileRef[];
	/** v2 only: outputs with no preview (`file`, `latent`), offered as downloads. */
	files?: FileRef[];
	/** ComfyUI marks animated images with `animated: [true]`. */
	animated?: boolean[];
	text?: string[];
	/** v2: the `name` of each `text` entry, in the same order. */
	textNames?: string[];
}

/** A queue item, as ComfyUI lists it: `[number, prompt_id, prompt, extra_data, outputs_to_execute]`. */
export type QueueItem = [number, string, ApiPrompt, Record<string, unknown>, string[]];

export interface QueueResponse {
	queue_running: QueueItem[];
	queue_pending: QueueItem[];
}

export interface QueueDeleteRequest {
	delete?: string[];
	clear?: boolean;
}

/** `[event type, data]`, kept in history the way ComfyUI keeps it. */
export type HistoryMessage = [string, Record<string, unknown>];

export interface HistoryEntry {
	prompt: QueueItem;
	outputs: Record<string, NodeUiOutput>;
	status: {
		/** `success` or `error` as ComfyUI has it; the cloud emulator adds `cancelled`. */
		status_str: 'success' | 'error' | 'cancelled';
		completed: boolean;
		messages: HistoryMessage[];
	};
	meta: Record<string, { node_id: string; display_node: string; parent_node: string | null; real_node_id: string }>;
}

export type HistoryResponse = Record<string, HistoryEntry>;

export interface UploadResponse {
	name: string;
	subfolder: string;
	type: 'input' | 'temp' | 'output';
}

export interface Asset {
	id: string;
	name: string;
	asset_hash?: string;
	size: number;
	mime_type?: string;
	tags?: string[];
	user_metadata?: Record<string, unknown>;
	preview_url?: string;
	preview_id?: string | null;
	prompt_id?: string | null;
	created_at: string;
	updated_at: string;
	last_access_time?: string;
	is_immutable?: boolean;
}

export interface AssetCreated extends Asset {
	created_new: boolean;
}

export interface FromHashRequest {
	hash: string;
	tags: string[];
	name?: string;
	mime_type?: string;
	user_metadata?: Record<string, unknown>;
}

export interface ErrorResponse {
	code: string;
	message: string;
}

export const ASSET_HASH_PATTERN = /^(blake3|sha256):[a-f0-9]{64}$/;

/** `exception_type` values of `execution_error` (spec: Execution errors). */
export const EXCEPTION_TYPES = [
	'ValidationError',
	'ModelDownloadError',
	'ImageDownloadError',
	'OOMError',
	'InsufficientFundsError',
	'InactiveSubscriptionError'
] as const;
export type ExceptionType = (typeof EXCEPTION_TYPES)[number];
