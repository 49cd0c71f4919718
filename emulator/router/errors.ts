/**
 * Router error answers: `{detail, error_type}` with `X-Service-Error-Type` mirroring the body, and
 * the status and extra headers the emulator uses for each error type. The spec gives no complete
 * mapping; where it is silent the choice is written in emulator/README.md.
 */
import type { FastifyReply } from 'fastify';
import type { KnownRouterErrorType } from '../../src/lib/models/protocol/router-api';

export function sendRouterError(
	reply: FastifyReply,
	status: number,
	errorType: string,
	detail: string,
	headers: Record<string, string | number> = {}
): FastifyReply {
	reply.header('X-Service-Error-Type', errorType);
	for (const [k, v] of Object.entries(headers)) reply.header(k, String(v));
	return reply.code(status).send({ detail, error_type: errorType });
}

/** Status of each error type when a run (sync, or a queued request's collect) ends with it. */
export const ERROR_STATUS: Record<KnownRouterErrorType, number> = {
	invalid_input: 400,
	content_policy_violation: 400,
	provider_error: 502,
	provider_timeout: 504,
	insufficient_credits: 402,
	model_not_found: 404,
	unauthorized: 401,
	forbidden: 403,
	concurrency_limit_exceeded: 429,
	client_disconnected: 499,
	internal_error: 500,
	deadline_exceeded: 504,
	not_enabled: 403,
	service_unavailable: 503,
	rate_limited: 429,
	cancelled: 409,
	queue_timeout: 504,
	request_not_found: 404
};

/** The provider status the emulator reports in `X-Service-Upstream-Status` for provider-side failures. */
export const UPSTREAM_STATUS: Partial<Record<KnownRouterErrorType, number>> = {
	content_policy_violation: 400,
	provider_error: 500,
	provider_timeout: 504
};

/** Seconds in `Retry-After` for errors that carry one. */
export const RETRY_AFTER_SECONDS: Partial<Record<KnownRouterErrorType, number>> = {
	provider_timeout: 5,
	deadline_exceeded: 5,
	queue_timeout: 30,
	rate_limited: 10,
	service_unavailable: 5
};

export function errorHeaders(errorType: KnownRouterErrorType): Record<string, string> {
	const headers: Record<string, string> = { 'X-Service-Error-Type': errorType };
	const upstream = UPSTREAM_STATUS[errorType];
	if (upstream !== undefined) headers['X-Service-Upstream-Status'] = String(upstream);
	const retry = RETRY_AFTER_SECONDS[errorType];
	if (retry !== undefined) headers['Retry-After'] = String(retry);
	return headers;
}
