/**
 * One HTTP exchange with a v2 API: its answer (or none), what the pure idempotency rules read of
 * it, the error a person is shown, and the wait between retries.
 */
import type { AppError } from '../../../core/protocol/errors';
import { requestIdOf, type RawResponse } from '../../../core/rules/http-response';
import { tryParseJson, type Json } from '../../../core/protocol/json';
import { v2ErrorOf } from '../../protocol/v2-errors';
import { parseV2Envelope, type V2Envelope } from '../../protocol/workflow-v2-parse';
import { retryAfterMs, type Exchange } from '../../rules/v2-idempotency';
import type { Connection } from '../../../core/worker/context';
import type { LinkHealth } from '../../../core/protocol/socket-state';
import type { Credential, GuardedRequest } from '../../../core/worker/guarded-fetch';

/** One HTTP exchange: no answer at all, or an answer with its JSON (undefined when not JSON) and envelope. */
export type Answer =
	| { kind: 'no-answer'; error: AppError }
	| { kind: 'answer'; res: RawResponse; url: string; json: Json | undefined; envelope: V2Envelope | null };

/** Sends one request with the surface's credential; an error status comes back with its envelope. */
export async function callV2(connection: Connection, credential: Credential, request: Omit<GuardedRequest, 'credential'>): Promise<Answer> {
	const res = await connection.fetch({ ...request, credential });
	if (!res.ok) return { kind: 'no-answer', error: res.error };
	const json = tryParseJson(res.value.body);
	return { kind: 'answer', res: res.value, url: request.url, json, envelope: res.value.status >= 400 ? parseV2Envelope(json) : null };
}

/** A wait that ends early, without an error, when the signal aborts. */
export const sleep = (ms: number, signal?: AbortSignal) =>
	new Promise<void>((resolve) => {
		const t = setTimeout(resolve, ms);
		signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
	});

export function exchangeOf(a: Answer): Exchange {
	return a.kind === 'no-answer'
		? { kind: 'no-answer' }
		: { kind: 'answer', status: a.res.status, code: a.envelope?.code ?? null, retryAfterMs: retryAfterMs(a.res.header('Retry-After')) };
}

export function errorOf(a: Answer): AppError {
	if (a.kind === 'no-answer') return a.error;
	const requestId = requestIdOf(a.res);
	return v2ErrorOf(a.res.status, a.envelope, {
		...(requestId ? { requestId } : {}),
		...(a.envelope ? {} : { detail: a.res.body.slice(0, 160) })
	});
}

/**
 * What an answer says of the server behind a proxy: `upstream_unreachable` (the real proxy answers 503,
 * on every route but `/health`, which stays 200 "healthy"), or a success. Other answers say nothing of it.
 */
export function linkHealthOf(a: Answer): LinkHealth | null {
	if (a.kind !== 'answer') return null;
	if (a.envelope?.code === 'upstream_unreachable')
		return { kind: 'upstream-down', message: a.envelope.message || 'The server behind the proxy does not answer.' };
	return a.res.status < 400 ? { kind: 'ok' } : null;
}
