/**
 * The queue: submit (201 with absolute URLs), status, collect (202 until COMPLETED), cancel.
 * `request_id` is the submission's `X-Service-Request-Id`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
	ROUTER_QUEUE_REQUEST_ID_PATTERN,
	type RouterQueueCancelResponse,
	type RouterQueueStatusResponse,
	type RouterQueueSubmitResponse
} from '../../../src/lib/models/protocol/router-api';
import { originOf, principalOf, resolveModel, type ModelParams, type RouterContext } from '../context';
import { ERROR_STATUS, RETRY_AFTER_SECONDS, errorHeaders, sendRouterError } from '../errors';
import { counterKey } from '../idempotency';
import { answerFromRecord, readRunRequest, refuseByServiceState, refuseInvalidInput } from '../admission';
import { QUEUE_STATUS, RequestQueue, type QueuedRequest } from '../queue';
import { sendRun } from './run-routes';
import type { StoredResponse } from '../dispatch';
import { CONTROL_PREFIX } from '../../control';

/** Seconds a client should wait before polling an unfinished request again. */
export const POLL_RETRY_AFTER_SECONDS = 1;

type RequestParams = ModelParams & { request_id: string };

function urls(origin: string, request: QueuedRequest): { status_url: string; response_url: string; cancel_url: string } {
	const base = `${origin}/v2/models/${request.model.id}/requests/${request.id}`;
	return { status_url: `${base}/status`, response_url: base, cancel_url: `${base}/cancel` };
}

function statusBody(origin: string, queue: RequestQueue, request: QueuedRequest): RouterQueueStatusResponse {
	const body: RouterQueueStatusResponse = { request_id: request.id, status: request.status, ...urls(origin, request) };
	if (request.status === QUEUE_STATUS.queued) body.queue_position = queue.position(request);
	if (request.status === QUEUE_STATUS.completed && request.errorType !== undefined) body.error_type = request.errorType;
	return body;
}

export function installQueueRoutes(app: FastifyInstance, ctx: RouterContext): RequestQueue {
	const queue = new RequestQueue(ctx);

	/** Resolves the model and the caller's request, answering 404/410 itself. */
	function lookup(
		request: FastifyRequest<{ Params: RequestParams }>,
		reply: FastifyReply,
		malformedStatus: 400 | 404
	): QueuedRequest | undefined {
		if (ctx.router.faults.runsUnavailable) {
			sendRouterError(reply, 503, 'service_unavailable', 'The queue is temporarily unavailable.', {
				'Retry-After': RETRY_AFTER_SECONDS.service_unavailable ?? 5
			});
			return undefined;
		}
		const model = resolveModel(ctx, request.params, reply);
		if (!model) return undefined;
		const id = request.params.request_id;
		if (!ROUTER_QUEUE_REQUEST_ID_PATTERN.test(id)) {
			if (malformedStatus === 400) sendRouterError(reply, 400, 'invalid_input', `"${id.slice(0, 64)}" is not a request id.`);
			else sendRouterError(reply, 404, 'request_not_found', 'No request of yours under this model has that id.');
			return undefined;
		}
		const found = queue.find(id, principalOf(request).scope, model.id);
		if (found.kind === 'live') return found.request;
		if (found.kind === 'expired')
			sendRouterError(reply, 410, 'request_not_found', 'The request is past its retention; its result is gone.');
		else sendRouterError(reply, 404, 'request_not_found', 'No request of yours under this model has that id.');
		return undefined;
	}

	app.post<{ Params: ModelParams }>('/v2/models/:provider/:model/requests', async (request, reply) => {
		if (ctx.router.faults.runsUnavailable)
			return sendRouterError(reply, 503, 'service_unavailable', 'The queue is temporarily unavailable.', { 'Retry-After': 5 });
		const asked = readRunRequest(ctx, request, reply);
		if (!asked) return reply;
		const { model, key, body, principal, print } = asked;
		if (key !== null) {
			const record = ctx.router.idempotency.lookup(principal.scope, key, ctx.state.now());
			if (record)
				return answerFromRecord(reply, record, print, ctx.state.now(), (stored) =>
					reply.code(stored.status).type(stored.contentType).send(stored.body)
				);
		}
		if (refuseByServiceState(ctx, reply)) return reply;
		if (refuseInvalidInput(ctx, model, body, reply)) return reply;

		const id = String(reply.getHeader('X-Service-Request-Id'));
		const queued: QueuedRequest = {
			id,
			scope: principal.scope,
			model,
			input: body as Record<string, unknown>,
			counter: key !== null ? counterKey(principal.scope, key) : `request:${id}`,
			submittedAt: ctx.state.now(),
			status: QUEUE_STATUS.queued,
			cancelRequested: false
		};
		queue.submit(queued);
		const answer: RouterQueueSubmitResponse = { request_id: id, status: queued.status, ...urls(originOf(request), queued) };
		if (queued.status === QUEUE_STATUS.queued) answer.queue_position = queue.position(queued);
		if (key !== null) {
			const stored: StoredResponse = {
				status: 201,
				contentType: 'application/json; charset=utf-8',
				headers: {},
				body: Buffer.from(JSON.stringify(answer)),
				charged: false,
				transient: false
			};
			const record = ctx.router.idempotency.create(principal.scope, key, print, ctx.state.now(), Date.now());
			record.state = { kind: 'done', response: stored };
		}
		return reply.code(201).send(answer);
	});

	app.get<{ Params: RequestParams }>('/v2/models/:provider/:model/requests/:request_id/status', async (request, reply) => {
		const found = lookup(request, reply, 404);
		if (!found) return reply;
		if (found.status !== QUEUE_STATUS.completed) reply.header('Retry-After', String(POLL_RETRY_AFTER_SECONDS));
		return statusBody(originOf(request), queue, found);
	});

	app.get<{ Params: RequestParams }>('/v2/models/:provider/:model/requests/:request_id', async (request, reply) => {
		const found = lookup(request, reply, 404);
		if (!found) return reply;
		if (found.status !== QUEUE_STATUS.completed) {
			reply.header('Retry-After', String(POLL_RETRY_AFTER_SECONDS));
			return reply.code(202).send(statusBody(originOf(request), queue, found));
		}
		const response = found.response;
		// A terminal request holding a recorded charge and a stored result returns the result (late cancel).
		if (response && response.status === 200) return sendRun(ctx, reply, found.scope, found.model, response, false);
		if (found.errorType === 'cancelled')
			return sendRouterError(reply, ERROR_STATUS.cancelled, 'cancelled', 'The request was cancelled before it produced a result.');
		if (found.errorType === 'queue_timeout')
			return sendRouterError(
				reply,
				ERROR_STATUS.queue_timeout,
				'queue_timeout',
				'The request waited past its queue timeout without admission.',
				errorHeaders('queue_timeout')
			);
		if (response) {
			for (const [k, v] of Object.entries(response.headers)) reply.header(k, v);
			return reply.code(response.status).type(response.contentType).send(response.body);
		}
		return sendRouterError(reply, 500, 'internal_error', 'The request completed without a result.');
	});

	app.put<{ Params: RequestParams }>('/v2/models/:provider/:model/requests/:request_id/cancel', async (request, reply) => {
		const found = lookup(request, reply, 400);
		if (!found) return reply;
		const outcome = queue.cancel(found);
		if (outcome === 'already-completed') {
			const body: RouterQueueCancelResponse = { request_id: found.id, status: 'ALREADY_COMPLETED' };
			return reply.code(409).send(body);
		}
		const body: RouterQueueCancelResponse = { request_id: found.id, status: 'CANCELLATION_REQUESTED' };
		return reply.code(202).send(body);
	});

	// Operator control (no auth, like every control route): withdraw a request whatever its state.
	app.post<{ Params: { request_id: string } }>(`${CONTROL_PREFIX}/router/requests/:request_id/cancel`, async (request, reply) => {
		const cancelled = queue.operatorCancel(request.params.request_id);
		if (!cancelled) return reply.code(404).send({ error: 'no unfinished request with that id' });
		return { request_id: cancelled.id, status: cancelled.status, error_type: cancelled.errorType };
	});

	return queue;
}
