/**
 * Checks shared by the synchronous run and the queued submission, in the order they apply:
 * service faults, the Idempotency-Key header, the body, an existing key record, the model's schema,
 * and the workspace's in-flight and spend limits. Each answers the error itself and returns false.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ROUTER_LIMITS } from '../../src/lib/models/protocol/router-api';
import type { CatalogModel } from './catalog';
import { principalOf, resolveModel, type ModelParams, type RouterContext } from './context';
import type { Principal } from './auth';
import type { StoredResponse } from './dispatch';
import { fingerprint, type IdempotencyRecord } from './idempotency';
import { ERROR_STATUS, RETRY_AFTER_SECONDS, sendRouterError } from './errors';

/** Faults and scenarios that refuse a run before anything else. */
export function refuseByServiceState(ctx: RouterContext, reply: FastifyReply): boolean {
	const f = ctx.router.faults;
	if (f.runsUnavailable) {
		sendRouterError(
			reply,
			ERROR_STATUS.service_unavailable,
			'service_unavailable',
			'A dependency of the router is temporarily unavailable.',
			{ 'Retry-After': RETRY_AFTER_SECONDS.service_unavailable ?? 5 }
		);
		return true;
	}
	if (f.rateLimited) {
		sendRouterError(reply, 429, 'rate_limited', 'The request allowance for this window is spent.', {
			'Retry-After': RETRY_AFTER_SECONDS.rate_limited ?? 10
		});
		return true;
	}
	if (f.unknownErrorType) {
		sendRouterError(reply, f.unknownErrorStatus, f.unknownErrorType, `The router refused the call (${f.unknownErrorType}).`);
		return true;
	}
	if (ctx.state.scenario === 'no-credits') {
		sendRouterError(reply, ERROR_STATUS.insufficient_credits, 'insufficient_credits', 'The workspace has no credits left.');
		return true;
	}
	return false;
}

/** The key, `null` when absent, or `undefined` after answering 400 for a malformed one. */
export function readIdempotencyKey(request: FastifyRequest, reply: FastifyReply): string | null | undefined {
	const raw = request.headers['idempotency-key'];
	if (raw === undefined) return null;
	if (typeof raw !== 'string' || raw.length < 1 || raw.length > ROUTER_LIMITS.idempotencyKeyMaxLength) {
		sendRouterError(reply, 400, 'invalid_input', `Idempotency-Key must be 1-${ROUTER_LIMITS.idempotencyKeyMaxLength} characters.`);
		return undefined;
	}
	return raw;
}

/** The parsed JSON body, or `undefined` after answering 400 when there is none. */
export function readBody(request: FastifyRequest, reply: FastifyReply): unknown {
	if (request.body === undefined) {
		sendRouterError(reply, 400, 'invalid_input', 'A JSON request body is required.');
		return undefined;
	}
	const type = String(request.headers['content-type'] ?? '')
		.split(';')[0]!
		.trim()
		.toLowerCase();
	if (type !== 'application/json' && !type.endsWith('+json')) {
		sendRouterError(reply, 400, 'invalid_input', 'The request body must be application/json.');
		return undefined;
	}
	return request.body;
}

function retryAfterSeconds(expectedEndMs: number): number {
	return Math.max(1, Math.ceil((expectedEndMs - Date.now()) / 1000));
}

/**
 * Answers from an existing record: 409 invalid_input for another request under the key or a consumed
 * key, 409 concurrency_limit_exceeded with Retry-After while the original runs, else the replay.
 */
export function answerFromRecord(
	reply: FastifyReply,
	record: IdempotencyRecord,
	print: string,
	now: number,
	replay: (stored: StoredResponse) => FastifyReply
): FastifyReply {
	if (record.state.kind === 'done' && record.state.response.replayableUntil !== undefined && now > record.state.response.replayableUntil) {
		record.state = { kind: 'consumed', reason: 'its assets were provider links that have expired' };
	}
	if (record.fingerprint !== print) {
		return sendRouterError(
			reply,
			409,
			'invalid_input',
			'This Idempotency-Key was used for a different request (method, path, query or body); use a new key.'
		);
	}
	switch (record.state.kind) {
		case 'running':
			return sendRouterError(
				reply,
				409,
				'concurrency_limit_exceeded',
				'The original call with this Idempotency-Key is still running; retry with the same key.',
				{
					'Retry-After': retryAfterSeconds(record.state.expectedEndMs)
				}
			);
		case 'consumed':
			return sendRouterError(
				reply,
				409,
				'invalid_input',
				`This Idempotency-Key was consumed by a call whose response cannot be replayed (${record.state.reason}); a new key starts a new call.`
			);
		case 'done':
			reply.header('Idempotent-Replayed', 'true');
			return replay(record.state.response);
	}
}

/** 422 from the model's authored schema; unauthored models accept any object. Not billed; no key kept. */
export function refuseInvalidInput(ctx: RouterContext, model: CatalogModel, body: unknown, reply: FastifyReply): boolean {
	const validator = ctx.router.catalog.validator(model);
	const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
	const entries = validator
		? validator.validate(body)
		: isObject
			? []
			: [{ loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type', input: body }];
	if (entries.length === 0) return false;
	reply.header('X-Service-Error-Type', 'invalid_input');
	reply.code(422).send({ detail: entries });
	return true;
}

/** 429 concurrency_limit_exceeded when the scope has the maximum calls in flight or the spend ceiling would be passed. */
export function refuseOverLimits(ctx: RouterContext, model: CatalogModel, principal: Principal, reply: FastifyReply): boolean {
	const { settings } = ctx.router;
	const ledger = ctx.router.spend;
	const spend = ledger.headers(principal.scope, settings.spendLimitCents);
	if (ledger.calls(principal.scope) >= settings.inFlightLimit) {
		sendRouterError(
			reply,
			429,
			'concurrency_limit_exceeded',
			'The workspace has the maximum number of calls in flight; reduce in-flight calls.',
			{ ...spend }
		);
		return true;
	}
	if (ledger.wouldExceed(principal.scope, model.priceCents, settings.spendLimitCents)) {
		sendRouterError(
			reply,
			429,
			'concurrency_limit_exceeded',
			'Starting this call would pass the workspace spend ceiling on in-flight calls.',
			{ ...spend }
		);
		return true;
	}
	return false;
}

/** What a run and a queued submission both read first: the model, the key, the body, and who asks. */
export interface RunRequest {
	model: CatalogModel;
	key: string | null;
	body: unknown;
	principal: Principal;
	/** The request's fingerprint, compared with a key's record. */
	print: string;
}

/** Reads a run request in the spec's order; a bad part is answered here and this gives nothing. */
export function readRunRequest(
	ctx: RouterContext,
	request: FastifyRequest<{ Params: ModelParams }>,
	reply: FastifyReply
): RunRequest | undefined {
	const model = resolveModel(ctx, request.params, reply);
	if (!model) return undefined;
	const key = readIdempotencyKey(request, reply);
	if (key === undefined) return undefined;
	const body = readBody(request, reply);
	if (body === undefined) return undefined;
	return { model, key, body, principal: principalOf(request), print: fingerprint('POST', request.url, body) };
}
