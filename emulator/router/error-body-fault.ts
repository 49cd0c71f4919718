/**
 * The router fault `errorBody`: error answers arrive as a proxy's HTML page, plain text or
 * truncated JSON instead of `{detail, error_type}`. Status and `X-Service-Request-Id` are kept, so a
 * client can still report them; a proxy page loses `X-Service-Error-Type`.
 */
import type { FastifyInstance } from 'fastify';
import { HTML_PROXY_PAGE } from '../scenarios';
import { CONTROL_PREFIX } from '../control';
import type { RouterContext } from './context';

export function installErrorBodyFault(app: FastifyInstance, ctx: RouterContext): void {
	app.addHook('onSend', async (request, reply, payload) => {
		const mode = ctx.router.faults.errorBody;
		if (mode === 'json' || reply.statusCode < 400 || request.url.startsWith(CONTROL_PREFIX)) return payload;
		if (reply.getHeader('X-Service-Error-Type') === undefined) return payload;
		if (mode === 'truncated') {
			const text = typeof payload === 'string' ? payload : String(payload ?? '');
			return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
		}
		reply.removeHeader('X-Service-Error-Type');
		if (mode === 'html') {
			reply.type('text/html; charset=utf-8');
			return HTML_PROXY_PAGE;
		}
		reply.type('text/plain; charset=utf-8');
		return `upstream connect error or disconnect/reset before headers. reset reason: overflow (${reply.statusCode})`;
	});
}
