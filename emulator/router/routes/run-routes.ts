/**
 * POST /v2/models/{p}/{m}: the synchronous run. The provider run is started independently of the
 * connection, so a call cut off, dropped or held past the service's deadline still completes, is
 * charged once, and is replayed to a same-key retry.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ModelParams, RouterContext } from '../context';
import { sendRouterError, RETRY_AFTER_SECONDS } from '../errors';
import { counterKey, type IdempotencyRecord } from '../idempotency';
import { countDispatch, errorResponse, providerDurationMs, runProvider, type StoredResponse } from '../dispatch';
import { answerFromRecord, readRunRequest, refuseByServiceState, refuseInvalidInput, refuseOverLimits } from '../admission';
import type { CatalogModel } from '../catalog';

/** Writes a stored run answer. Spend headers and nosniff go on every success; credits only on a fresh one. */
export function sendRun(
	ctx: RouterContext,
	reply: FastifyReply,
	scope: string,
	model: CatalogModel,
	stored: StoredResponse,
	fresh: boolean
): FastifyReply {
	for (const [k, v] of Object.entries(stored.headers)) reply.header(k, v);
	if (stored.status === 200) {
		reply.header('X-Content-Type-Options', 'nosniff');
		const spend = ctx.router.spend.headers(scope, ctx.router.settings.spendLimitCents);
		for (const [k, v] of Object.entries(spend)) reply.header(k, v);
		if (fresh && model.sendsCreditsUsed && stored.charged) reply.header('X-Service-Credits-Used', String(model.priceCents));
	}
	return reply.code(stored.status).type(stored.contentType).send(stored.body);
}

/** What a finished run leaves in its key's record. */
export function settleRecord(ctx: RouterContext, record: IdempotencyRecord | undefined, stored: StoredResponse): void {
	if (!record || record.state.kind === 'consumed') return;
	if (stored.transient) ctx.router.idempotency.release(record);
	else if (stored.body.length > ctx.router.settings.replayLimitBytes)
		record.state = { kind: 'consumed', reason: 'the response was too large to keep' };
	else record.state = { kind: 'done', response: stored };
}

export function installRunRoutes(app: FastifyInstance, ctx: RouterContext): void {
	app.post<{ Params: ModelParams }>('/v2/models/:provider/:model', async (request, reply) => {
		const asked = readRunRequest(ctx, request, reply);
		if (!asked) return reply;
		const { model, key, body, principal, print } = asked;
		const replay = (stored: StoredResponse): FastifyReply => sendRun(ctx, reply, principal.scope, model, stored, false);
		if (key !== null) {
			const record = ctx.router.idempotency.lookup(principal.scope, key, ctx.state.now());
			if (record) return answerFromRecord(reply, record, print, ctx.state.now(), replay);
		}
		if (refuseByServiceState(ctx, reply)) return reply;
		if (refuseInvalidInput(ctx, model, body, reply)) return reply;
		if (refuseOverLimits(ctx, model, principal, reply)) return reply;

		// Dispatch: from here on the call is the provider's, whatever happens to the connection.
		const release = ctx.router.spend.commit(principal.scope, model.priceCents);
		const requestId = String(reply.getHeader('X-Service-Request-Id'));
		const counter = key !== null ? counterKey(principal.scope, key) : `request:${requestId}`;
		const record =
			key !== null
				? ctx.router.idempotency.create(principal.scope, key, print, ctx.state.now(), Date.now() + providerDurationMs(ctx, model))
				: undefined;
		countDispatch(ctx, counter);
		const run = runProvider(ctx, model, body as Record<string, unknown>, counter, requestId)
			.catch(() => errorResponse(500, 'internal_error', 'The router failed while reading the provider result.'))
			.then((stored) => {
				release();
				settleRecord(ctx, record, stored);
				return stored;
			});

		const drop = ctx.router.faults.dropAfterDispatch;
		if (drop !== 'none') {
			ctx.router.faults.dropAfterDispatch = 'none';
			if (drop === 'consumed' && record)
				record.state = { kind: 'consumed', reason: 'the connection dropped after dispatch and no provider handle was kept' };
			reply.hijack();
			request.raw.socket.destroy();
			return reply;
		}

		let timer: NodeJS.Timeout | undefined;
		const deadline = new Promise<'deadline'>((r) => (timer = setTimeout(() => r('deadline'), ctx.router.settings.syncHoldMs)));
		const held = await Promise.race([run, deadline]);
		clearTimeout(timer);
		if (held === 'deadline') {
			return sendRouterError(
				reply,
				504,
				'deadline_exceeded',
				'The router stopped waiting at its own bound; the run continues. Retry with the same Idempotency-Key.',
				{
					'Retry-After': RETRY_AFTER_SECONDS.deadline_exceeded ?? 5
				}
			);
		}
		return sendRun(ctx, reply, principal.scope, model, held, true);
	});
}
