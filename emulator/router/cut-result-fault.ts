/**
 * The router fault `cutResultOnce`: the next successful JSON result (a synchronous run's 200, or a
 * queued request's collect) arrives cut off after half its bytes, with a Content-Length that matches
 * what is sent, as an independent router was seen to do. One-shot: the same key's replay, or a
 * second collect, is whole.
 */
import type { FastifyInstance } from 'fastify';
import { CONTROL_PREFIX } from '../control';
import type { RouterContext } from './context';

const SYNC_RUN = /^\/v2\/models\/[^/]+\/[^/]+$/;
const COLLECT = /^\/v2\/models\/[^/]+\/[^/]+\/requests\/[^/]+$/;

/** A synchronous run's POST, or a collect's GET (a model's own GET shares the run's path). */
const isResult = (method: string, path: string): boolean =>
	(method === 'POST' && SYNC_RUN.test(path)) || (method === 'GET' && COLLECT.test(path));

export function installCutResultFault(app: FastifyInstance, ctx: RouterContext): void {
	app.addHook('onSend', async (request, reply, payload) => {
		const faults = ctx.router.faults;
		if (!faults.cutResultOnce || reply.statusCode !== 200 || request.url.startsWith(CONTROL_PREFIX)) return payload;
		if (!isResult(request.method, request.url.split('?')[0]!)) return payload;
		if (!String(reply.getHeader('Content-Type') ?? '').includes('json')) return payload;
		const bytes = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
		if (!bytes) return payload;
		ctx.router.faults = { ...faults, cutResultOnce: false };
		return bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2)));
	});
}
