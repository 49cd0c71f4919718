/** Small HTTP helpers the workflow routes share. */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Registers a route at `/api/<path>` and, as the local runtime does, at `/<path>`. */
export const both = (path: string): string[] => [`/api${path}`, path];

/** The local runtime's router answers unknown routes with a bare 404 and no CORS headers. */
export function bareNotFound(reply: FastifyReply): FastifyReply {
	for (const h of ['Access-Control-Allow-Origin', 'Access-Control-Expose-Headers', 'Vary']) reply.removeHeader(h);
	return reply.code(404).type('text/plain; charset=utf-8').send('404: Not Found');
}

/**
 * A route the local runtime lacks, as the real 0.3.64 answers it: a GET is a bare 404, any other method a
 * bare 405 (`Allow: GET,HEAD`, from its static catch-all route), both without CORS headers.
 */
export function bareUnknownRoute(request: FastifyRequest, reply: FastifyReply): FastifyReply {
	if (request.method === 'GET' || request.method === 'HEAD') return bareNotFound(reply);
	for (const h of ['Access-Control-Allow-Origin', 'Access-Control-Expose-Headers', 'Vary']) reply.removeHeader(h);
	return reply.code(405).header('Allow', 'GET,HEAD').type('text/plain; charset=utf-8').send('405: Method Not Allowed');
}

export type Parsed = { ok: true; value: unknown } | { ok: false };

/** Bodies arrive as text (see server.ts); an empty body is `undefined`. */
export function parseJson(body: unknown): Parsed {
	if (body === undefined || body === null || body === '') return { ok: true, value: undefined };
	if (typeof body !== 'string') return { ok: true, value: body };
	try {
		return { ok: true, value: JSON.parse(body) };
	} catch {
		return { ok: false };
	}
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function badRequest(reply: FastifyReply, message: string, code = 'bad_request'): FastifyReply {
	return reply.code(400).send({ code, message });
}
