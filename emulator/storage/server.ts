/**
 * The storage origin that signed URLs point at. It serves bytes to anyone holding a valid
 * signature, with `Access-Control-Allow-Origin: *`, and refuses and records every request that
 * carries a credential: the leak log tests read.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { EmulatorState } from '../state';
import { installControlRoutes, CONTROL_PREFIX } from '../control';

const CREDENTIAL_HEADERS = ['x-api-key', 'authorization', 'cookie'];

export function credentialsCarried(request: FastifyRequest, apiKey: string): string[] {
	const carried = CREDENTIAL_HEADERS.filter((h) => request.headers[h] !== undefined);
	const requested = String(request.headers['access-control-request-headers'] ?? '').toLowerCase();
	for (const h of CREDENTIAL_HEADERS) if (requested.split(/\s*,\s*/).includes(h)) carried.push(`preflight:${h}`);
	if (request.url.includes(apiKey)) carried.push('api-key-in-url');
	for (const [name, value] of Object.entries(request.headers)) {
		if (typeof value === 'string' && value.includes(apiKey) && !carried.includes(name)) carried.push(`api-key-in:${name}`);
	}
	return carried;
}

export function createStorageService(state: EmulatorState): FastifyInstance {
	const app = Fastify({ logger: false });
	installControlRoutes(app, state);
	app.addHook('onRequest', async (request, reply) => {
		if (request.url.startsWith(CONTROL_PREFIX)) return;
		reply.header('Access-Control-Allow-Origin', '*');
		const carried = credentialsCarried(request, state.apiKey);
		if (carried.length > 0) {
			state.leaks.push({
				at: new Date(state.now()).toISOString(),
				method: request.method,
				url: request.url.replace(state.apiKey, '<api-key>'),
				carried,
				origin: request.headers.origin ?? null
			});
			return reply.code(403).type('text/plain').send('credentials are not accepted by the storage host');
		}
		if (request.method === 'OPTIONS') {
			reply.header('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
			reply.header('Access-Control-Allow-Headers', String(request.headers['access-control-request-headers'] ?? ''));
			reply.header('Access-Control-Max-Age', '600');
			return reply.code(204).send();
		}
	});
	return app;
}
