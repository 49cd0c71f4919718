/** Faults that apply to any service origin: slow answers, HTML proxy pages, truncated JSON. */
import type { FastifyInstance } from 'fastify';
import type { EmulatorState } from '../state';
import { HTML_PROXY_PAGE } from '../scenarios';
import { CONTROL_PREFIX } from '../control';

export function installFaults(app: FastifyInstance, state: EmulatorState): void {
	app.addHook('onRequest', async (request, reply) => {
		if (request.url.startsWith(CONTROL_PREFIX) || request.method === 'OPTIONS') return;
		state.count(`${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`);
		if (state.faults.slowMs > 0) await new Promise((r) => setTimeout(r, state.faults.slowMs));
		if (state.faults.htmlErrorPage) {
			return reply.code(502).type('text/html; charset=utf-8').send(HTML_PROXY_PAGE);
		}
	});
	app.addHook('onSend', async (request, reply, payload) => {
		if (!state.faults.truncatedJson || request.url.startsWith(CONTROL_PREFIX)) return payload;
		const type = String(reply.getHeader('content-type') ?? '');
		if (!type.includes('json') || typeof payload !== 'string' || payload.length < 2) return payload;
		return payload.slice(0, Math.max(1, Math.floor(payload.length / 2)));
	});
}
