/**
 * The model run's record, part of the run kernel (see run-kernel.ts): one record per model request
 * (synchronous or queued), kept in IndexedDB under `modelrun:<id>` with a schema version. Types
 * only; the rules that move it are the model feature's (`models/rules/model-run.ts`,
 * `model-run-reducer.ts`).
 */
import type { Json } from './json';
import type { AppError } from './errors';

/** What a saved asset of a result is (`models/rules/model-assets.ts` tells it from a MIME type). */
export type MediaKind = 'image' | 'video' | 'audio' | 'file';

export const MODEL_RUN_VERSION = 1;

export type ModelRunStatus = 'submitting' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'unknown';

export interface SpendFacts {
	limitCents?: number;
	currentCents?: number;
	remainingCents?: number;
	at: number;
}

export interface StoredAsset {
	path: string;
	kind: MediaKind;
	mime?: string;
	source: 'url' | 'inline' | 'body';
	url?: string;
	expiresAt?: number;
	/** Key of the bytes in IndexedDB, when they could be read and saved. */
	bytesKey?: string;
	size?: number;
	/** Why the bytes are not saved (a host without CORS headers is shown by the browser element only). */
	notSaved?: string;
}

export interface ModelResult {
	contentType: string;
	size: number;
	/** The whole body's bytes, saved before anything else is done with them. */
	bytesKey: string;
	json?: Json;
	text?: string;
	assets: StoredAsset[];
}

export interface QueueHandle {
	requestId: string;
	statusUrl: string;
	responseUrl: string;
	cancelUrl: string;
	position?: number;
	/** The raw status the service last reported (never depended on beyond `COMPLETED`). */
	lastStatus?: string;
	polls: number;
	cancel?: 'requested' | 'already-completed';
}

export interface ModelRun {
	schemaVersion: typeof MODEL_RUN_VERSION;
	kind: 'model';
	id: string;
	profileId: string;
	modelId: string;
	title: string;
	mode: 'sync' | 'queue';
	body: Json;
	idempotencyKey: string;
	keyCreatedAt: number;
	status: ModelRunStatus;
	/** What the run is doing now, in words ("waiting for a free connection", "retrying in 3 s"). */
	phase?: string;
	attempts: number;
	replayed: boolean;
	requestId?: string;
	queue?: QueueHandle;
	createdAt: number;
	startedAt?: number;
	finishedAt?: number;
	result?: ModelResult;
	error?: AppError;
	fieldErrors?: Array<{ loc: Array<string | number>; msg: string }>;
	/** `X-Service-Credits-Used`, the run's cost, when the provider sends it. */
	creditsUsed?: number;
	spend?: SpendFacts;
	/** The person stopped waiting; the provider may still finish and charge. */
	stoppedWaiting?: boolean;
	/** Seeds actually sent, by field id. */
	seeds?: Record<string, number>;
	/** Composed offline: waits with its key, to be sent once when the app is next online. */
	outbox?: boolean;
	/** A cell of a sweep: the sweep's id and the cell's index in it. */
	sweep?: { id: string; cell: number };
	/**
	 * When this copy was saved (ms, rising with every save of the run): of two copies, the later one wins,
	 * so a page's slower read, or a tab's older cache, never puts a run back to an earlier state.
	 */
	savedAt?: number;
}
