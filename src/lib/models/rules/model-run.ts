/**
 * The pure rules that move a model run (synchronous or queued): what an answer means for a keyed
 * call, when a retry is allowed, and when the outcome is unknown. The record's types are the run
 * kernel's (`core/protocol/model-run.ts`), re-exported here for the feature's own code.
 */
import type { Json } from '../../core/protocol/json';
import { ROUTER_HEADERS, ROUTER_LIMITS } from '../protocol/router-api';
import type { ModelRun, ModelRunStatus, SpendFacts } from '../../core/protocol/model-run';
import { controlType } from './model-errors';

export { MODEL_RUN_VERSION } from '../../core/protocol/model-run';
export type { ModelResult, ModelRun, ModelRunStatus, QueueHandle, SpendFacts, StoredAsset } from '../../core/protocol/model-run';

export const MODEL_TERMINAL: ReadonlySet<ModelRunStatus> = new Set(['succeeded', 'failed', 'cancelled', 'unknown']);

export const OUTBOX_PHASE = 'In the outbox: it will be sent once, under its key, when Runboard is next online.';

/** Of two copies of a run (either may be missing), the one saved last; `b` when they tie. */
export function newerModelRun<T extends Pick<ModelRun, 'savedAt'>>(a: T | undefined, b: T | undefined): T | undefined {
	if (!a) return b;
	if (!b) return a;
	return (a.savedAt ?? 0) > (b.savedAt ?? 0) ? a : b;
}

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
