/**
 * Wire types of the v2 surface (assets and jobs), as `../shared/spec/workflow-service-v2.md` restates
 * the public contract. Shared by the emulator and, later, the app's v2 client. No DOM, no Node.
 */

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'canceling', 'canceled', 'failed', 'expired'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['succeeded', 'canceled', 'failed', 'expired'];

export const V2_HASH_PATTERN = /^blake3:[a-f0-9]{64}$/;

export interface V2Asset {
	id: string;
	hash: string | null;
	size_bytes: number;
	content_type: string;
	file_path: string | null;
	created_at: string;
	url: string | null;
	url_expires_at: string | null;
	/** On create answers only. */
	created_new?: boolean;
}

export interface V2Progress {
	value: number;
	nodes_done: number;
	nodes_total: number;
	current_node?: string | null;
	current_node_class?: string | null;
	step?: number | null;
	steps?: number | null;
	message?: string | null;
}

export type V2OutputType = 'image' | 'video' | 'audio' | 'text' | 'file' | 'latent';

export interface V2Output {
	node_id: string;
	name: string;
	type: V2OutputType;
	content_type: string;
	size_bytes: number;
	id: string;
	hash: string | null;
	url: string;
	url_expires_at: string;
}

export interface V2JobError {
	code: string;
	message: string;
	node_id: string | null;
	class_type: string | null;
	traceback: string | null;
}

export interface V2JobUrls {
	self: string;
	events: string;
	cancel: string;
}

export interface V2Job {
	id: string;
	status: JobStatus;
	created_at: string;
	started_at: string | null;
	completed_at: string | null;
	expires_at: string;
	queue_position: number | null;
	progress: V2Progress | null;
	outputs: V2Output[];
	error: V2JobError | null;
	metrics?: Record<string, number | null>;
	urls: V2JobUrls;
}

export interface V2ErrorBody {
	error: { code: string; message: string; details: Record<string, unknown> | null };
}

/** `{__type: "core/ASSET", info: {id, hash?, file_path?}}`: where a workflow input names a file. */
export interface V2AssetReference {
	__type: 'core/ASSET';
	info: { id: string; hash?: string; file_path?: string };
}

export interface V2StatusEvent {
	status: JobStatus;
	queue_position?: number | null;
}

export interface V2PreviewEvent {
	node_id: string;
	content_type: string;
	data_base64: string;
}

export interface V2LogEvent {
	level: string;
	message: string;
}
