/**
 * The decisions behind a v2 upload and a v2 submit, as pure functions of what the server answered:
 * the worker does the I/O, these say what comes next. Both dialects are handled: the contract
 * (Stripe semantics: replay, 409 while in flight) and the self-hosted proxy (any reuse of a key is
 * 422 `idempotency_key_reuse`, which on a retry means the first attempt was recorded).
 */

/** What one HTTP exchange came to, as far as these decisions care. */
export type Exchange =
	/** No answer: a drop, a timeout, the tab went away. The request may or may not have been recorded. */
	{ kind: 'no-answer' } | { kind: 'answer'; status: number; code: string | null; retryAfterMs: number | null };

const DEFAULT_WAIT_MS = 1_000;
/** How often a dropped or refused request is tried again with the same key before giving up. */
export const MAX_ATTEMPTS = 6;

// ---------------------------------------------------------------- uploads

/** After `POST /assets/from-hash`: the server has the content (use the asset), has not (send the bytes), or something else went wrong. */
export type FromHashStep = { next: 'use' } | { next: 'upload' } | { next: 'fail' };

export function afterFromHash(answer: Exchange): FromHashStep {
	if (answer.kind === 'no-answer') return { next: 'upload' };
	if (answer.status === 200 || answer.status === 201) return { next: 'use' };
	// A miss and "not yours" look the same (404 blob_not_found); a server without the route says 404/405 too.
	if (answer.status === 404 || answer.status === 405 || answer.status === 501) return { next: 'upload' };
	return { next: 'fail' };
}

/** After `POST /assets` (or a poll of an asset that answered 202). */
export type UploadStep =
	| { next: 'use' }
	/** 202: accepted but still being scanned: poll `GET /assets/{id}` until it is ready. */
	| { next: 'poll'; afterMs: number }
	/** The file changed while it was read (409 `hash_mismatch`): hash again, with a new key, and start over. */
	| { next: 'rehash' }
	/** Send again with the same key (and the same bytes). */
	| { next: 'retry'; afterMs: number }
	| { next: 'fail' };

export function afterUpload(answer: Exchange, attempt: number, backoffMs: number): UploadStep {
	if (answer.kind === 'no-answer') return attempt < MAX_ATTEMPTS ? { next: 'retry', afterMs: backoffMs } : { next: 'fail' };
	const { status, code } = answer;
	if (status === 200 || status === 201) return { next: 'use' };
	if (status === 202) return { next: 'poll', afterMs: answer.retryAfterMs ?? DEFAULT_WAIT_MS };
	if (status === 409 && code === 'hash_mismatch') return { next: 'rehash' };
	if ((status === 409 || status === 429 || status >= 500) && attempt < MAX_ATTEMPTS)
		return { next: 'retry', afterMs: answer.retryAfterMs ?? backoffMs };
	// On the proxy, a retry of an upload whose answer was lost is 422 reuse: sending it again under a
	// new key is harmless (the same bytes dedupe to the same asset), so the caller starts over.
	if (status === 422 && code === 'idempotency_key_reuse' && attempt > 1) return { next: 'rehash' };
	return { next: 'fail' };
}

// ---------------------------------------------------------------- submits

/**
 * A submit's key and body are stored before the first byte; `attempt` counts sends with that key
 * (a reload resumes at the stored count, so the first send after a reload is already a retry).
 */
export interface SubmitAttempt {
	attempt: number;
	/**
	 * The key may have been sent before this call (a reload, a resend of a run): keys are fresh UUIDs
	 * stored with the run, so a reuse the server reports can only be ours.
	 */
	sentBefore?: boolean;
}

export type SubmitStep =
	/** The job is created (201) or the recorded answer was replayed (200, Idempotency-Replayed). */
	| { next: 'accepted' }
	/** Same key, same body, after a wait: 409 while the first call is in flight, 429 queue_full, a drop, a 5xx. */
	| { next: 'retry'; afterMs: number }
	/** The proxy's 422 reuse on a retry: the first attempt was recorded; find that job with `GET /jobs`. */
	| { next: 'find-recorded' }
	/** 422 invalid_workflow / missing_asset / workflow_format_ui: show it at the fields, do not retry. */
	| { next: 'rejected' }
	| { next: 'fail' };

export function afterSubmit(answer: Exchange, { attempt, sentBefore = false }: SubmitAttempt, backoffMs: number): SubmitStep {
	const canRetry = attempt < MAX_ATTEMPTS;
	if (answer.kind === 'no-answer') return canRetry ? { next: 'retry', afterMs: backoffMs } : { next: 'fail' };
	const { status, code } = answer;
	if (status === 200 || status === 201) return { next: 'accepted' };
	if (status === 409 || status === 429) return canRetry ? { next: 'retry', afterMs: answer.retryAfterMs ?? backoffMs } : { next: 'fail' };
	if (status === 422 && code === 'idempotency_key_reuse') return attempt > 1 || sentBefore ? { next: 'find-recorded' } : { next: 'fail' };
	if (status === 422 || status === 400) return { next: 'rejected' };
	if ((status >= 500 || status === 408) && canRetry) return { next: 'retry', afterMs: answer.retryAfterMs ?? backoffMs };
	return { next: 'fail' };
}

/** A job as `GET /jobs` lists it, for finding the one a lost answer created. */
export interface ListedJob {
	id: string;
	createdAt: string;
}

/**
 * The job a submit created when its answer was lost: the newest listed job created no earlier than
 * the submit was stored (less a clock allowance), that no run here already claims.
 */
export function pickRecordedJob(
	jobs: readonly ListedJob[],
	storedAt: number,
	claimed: ReadonlySet<string>,
	skewMs = 120_000
): string | null {
	let best: { id: string; t: number } | null = null;
	for (const job of jobs) {
		const t = Date.parse(job.createdAt);
		if (Number.isNaN(t) || t < storedAt - skewMs || claimed.has(job.id)) continue;
		if (!best || t > best.t) best = { id: job.id, t };
	}
	return best?.id ?? null;
}

/** `Retry-After` in seconds (or an HTTP date) to milliseconds; null when absent or unreadable (CORS may hide it). */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
	if (header === null) return null;
	const seconds = Number(header);
	if (header.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const at = Date.parse(header);
	return Number.isNaN(at) ? null : Math.max(0, at - now);
}
