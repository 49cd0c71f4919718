/** GET /v2/models, GET /v2/models/{p}/{m} and the schema document with ETag / 304. */
import type { FastifyInstance } from 'fastify';
import type { RouterModelDetail, RouterModelListResponse } from '../../../src/lib/models/protocol/router-api';
import { sendRouterError } from '../errors';
import { listEntry } from '../catalog';
import { clampLimit, entriesOnPage } from '../cursor';
import { originOf, resolveModel, type ModelParams, type RouterContext } from '../context';

function unavailable(ctx: RouterContext): boolean {
	return ctx.state.faults.catalogUnavailable;
}

/** `If-None-Match` may list several tags or `*`; weak comparison is not allowed for a strong tag. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
	if (!ifNoneMatch) return false;
	return ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === '*');
}

export function installCatalogRoutes(app: FastifyInstance, ctx: RouterContext): void {
	app.get<{ Querystring: { cursor?: string; limit?: string } }>('/v2/models', async (request, reply) => {
		if (unavailable(ctx))
			return sendRouterError(reply, 503, 'service_unavailable', 'The catalog is temporarily unavailable.', { 'Retry-After': 5 });
		const query = request.query;
		if (Array.isArray(query.cursor) || Array.isArray(query.limit))
			return sendRouterError(reply, 400, 'invalid_input', 'cursor and limit may be given once.');
		const limit = clampLimit(query.limit);
		if (limit === undefined) return sendRouterError(reply, 400, 'invalid_input', `limit must be an integer, got "${query.limit}".`);
		const build = ctx.router.catalog;
		let position = 0;
		let page = 0;
		if (query.cursor !== undefined) {
			const decoded = build.cursors.decode(query.cursor);
			if (!decoded || decoded.position < 0 || decoded.position > build.models.length) {
				return sendRouterError(
					reply,
					400,
					'invalid_input',
					'The cursor is malformed, expired or from an older catalog; start the walk again.'
				);
			}
			({ position, page } = decoded);
		}
		const take = entriesOnPage(page, limit);
		const slice = build.models.slice(position, position + take);
		const next = position + take;
		const hasMore = next < build.models.length;
		const body: RouterModelListResponse = { data: slice.map(listEntry), has_more: hasMore, limit };
		if (hasMore) body.next_cursor = build.cursors.encode({ position: next, page: page + 1 });
		return body;
	});

	app.get<{ Params: ModelParams }>('/v2/models/:provider/:model', async (request, reply) => {
		if (unavailable(ctx))
			return sendRouterError(reply, 503, 'service_unavailable', 'The catalog is temporarily unavailable.', { 'Retry-After': 5 });
		const model = resolveModel(ctx, request.params, reply);
		if (!model) return reply;
		const detail: RouterModelDetail = {
			...listEntry(model),
			input_schema_url: `${originOf(request)}/v2/models/${model.id}/openapi.json`
		};
		return detail;
	});

	app.get<{ Params: ModelParams }>('/v2/models/:provider/:model/openapi.json', async (request, reply) => {
		if (unavailable(ctx))
			return sendRouterError(reply, 503, 'service_unavailable', 'The catalog is temporarily unavailable.', { 'Retry-After': 5 });
		const model = resolveModel(ctx, request.params, reply);
		if (!model) return reply;
		if (ctx.router.faults.schemaInternalError) return sendRouterError(reply, 500, 'internal_error', 'The schema store failed.');
		const doc = ctx.router.catalog.document(model);
		reply.header('ETag', doc.etag).header('Cache-Control', 'private, must-revalidate');
		if (matches(request.headers['if-none-match'], doc.etag)) return reply.code(304).send();
		return reply.type('application/json').send(doc.bytes);
	});
}
