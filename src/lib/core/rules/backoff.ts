/** Exponential backoff with full jitter: a phone waking many tabs must not retry in lockstep. */

export interface BackoffPolicy {
	baseMs: number;
	maxMs: number;
}

export const SOCKET_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 30_000 };

/** Reads of a server that does not answer: from about 2 s apart up to 30 s. */
export const DOWN_BACKOFF: BackoffPolicy = { baseMs: 2000, maxMs: 30_000 };

/** Delay before retry number `attempt` (0 = first retry); `random` is in [0, 1). */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: number): number {
	const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt, 20));
	return Math.round(policy.baseMs / 2 + random * (ceiling - policy.baseMs / 2));
}

/**
 * Delay before retry number `attempt`, between half the step and the step ("equal jitter"): still
 * spread out, but never shorter than half, so even an unlucky draw cannot ask a dead server every second.
 */
export function equalJitterDelay(attempt: number, policy: BackoffPolicy, random: number): number {
	const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt, 20));
	return Math.round(ceiling / 2 + random * (ceiling / 2));
}
