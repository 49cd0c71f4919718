/**
 * A model run as Runboard keeps it (synchronous or queued), and the pure rules that move it: what
 * an answer means for a keyed call, when a retry is allowed, and when the outcome is unknown.
 * Kept in IndexedDB under `modelrun:<id>` with a schema version; the Runs timeline lists these
 * beside workflow runs (`run-record.ts`).
 */
import type { Json } from '../../core/protocol/json';
import { ROUTER_HEADERS, ROUTER_LIMITS } from '../protocol/router-api';
import type { AppError } from '../../core/protocol/errors';
import type { MediaKind } from './model-assets';
import { controlType } from './model-errors';

export const MODEL_RUN_VERSION = 1;

export type ModelRunStatus = 'submitting' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'unknown';

export const MODEL_TERMINAL: ReadonlySet<ModelRunStatus> = new Set(['succeeded', 'failed', 'cancelled', 'unknown']);

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
}

export const OUTBOX_PHASE = 'In the outbox: it will be sent once, under its key, when Runboard is next online.';

export function isModelTerminal(status: ModelRunStatus): boolean {
	return MODEL_TERMINAL.has(status);
}

/** A key is only worth retrying inside its retention. */
export function keyExpired(run: Pick<ModelRun, 'keyCreatedAt'>, now: number): boolean {
	return now - run.keyCreatedAt >= ROUTER_LIMITS.idempotencyRetentionMs;
}

export const OUTCOME_UNKNOWN =
	'Outcome unknown, may have been charged: the call was sent, and the service can no longer say what became of it under this key. Starting again uses a new key and may create a second billable run; that is your decision.';

/** The facts of one answer to a keyed call that the rules depend on. */
export interface AnswerFacts {
	status: number;
	errorType?: string;
	retryAfterSeconds?: number;
}

export type SyncDecision =
	| { kind: 'success' }
	| { kind: 'retry'; afterMs: number; why: string }
	| { kind: 'outcome-unknown' }
	| { kind: 'field-errors' }
	| { kind: 'failed' };

/**
 * What a synchronous run does with an answer. Only the explicit hints retry automatically:
 * 409 `concurrency_limit_exceeded` and 504 with `Retry-After` (a deadline, not a provider failure).
 * A 409 `invalid_input` means the key cannot serve this call. Each run has its own key, used for
 * one body only, so that means the key was consumed by an earlier send (ours, or the browser's own
 * silent resend of a POST on a dropped keep-alive socket): the outcome is unknown.
 */
export function decideSync(answer: AnswerFacts): SyncDecision {
	const type = controlType(answer.errorType);
	if (answer.status >= 200 && answer.status < 300) return { kind: 'success' };
	if (answer.status === 422) return { kind: 'field-errors' };
	if (answer.status === 409 && type === 'concurrency_limit_exceeded' && answer.retryAfterSeconds !== undefined)
		return { kind: 'retry', afterMs: answer.retryAfterSeconds * 1000, why: 'the original call with this key is still running' };
	if (answer.status === 504 && answer.retryAfterSeconds !== undefined && (type === undefined || type === 'deadline_exceeded'))
		return { kind: 'retry', afterMs: answer.retryAfterSeconds * 1000, why: 'the service stopped waiting; the run continues' };
	if (answer.status === 409 && type === 'invalid_input') return { kind: 'outcome-unknown' };
	return { kind: 'failed' };
}

/** After no answer at all (timeout, dropped connection, reload), the same key is sent again, a few times. */
export const MAX_BLIND_RETRIES = 3;

export function titleOf(modelId: string, body: Json): string {
	const b = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
	const prompt = ['prompt', 'text'].map((k) => b[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
	return prompt ? `${modelId}: ${prompt.length > 60 ? `${prompt.slice(0, 57)}…` : prompt}` : modelId;
}

/** Whether a status answer (or collect 202) says the request is finished: only `COMPLETED` is. */
export function queueFinished(status: string | undefined): boolean {
	return status === 'COMPLETED';
}

/** Seconds from a `Retry-After` header (integer seconds); undefined when absent or not a number. */
export function retryAfterSeconds(header: string | null | undefined): number | undefined {
	if (header === null || header === undefined) return undefined;
	const s = Number(header.trim());
	return Number.isFinite(s) && s >= 0 ? s : undefined;
}

/** The spend headers of an answer (integers, USD cents); undefined when none is present. */
export function spendOf(header: (name: string) => string | null, at: number): SpendFacts | undefined {
	const read = (n: string) => {
		const v = header(n);
		return v !== null && /^\d+$/.test(v.trim()) ? Number(v) : undefined;
	};
	const limitCents = read(ROUTER_HEADERS.spendLimit);
	const currentCents = read(ROUTER_HEADERS.spendCurrent);
	const remainingCents = read(ROUTER_HEADERS.spendRemaining);
	if (limitCents === undefined && currentCents === undefined && remainingCents === undefined) return undefined;
	return {
		...(limitCents !== undefined ? { limitCents } : {}),
		...(currentCents !== undefined ? { currentCents } : {}),
		...(remainingCents !== undefined ? { remainingCents } : {}),
		at
	};
}

export function cents(value: number | undefined): string {
	return value === undefined ? 'not reported' : `$${(value / 100).toFixed(2)}`;
}
