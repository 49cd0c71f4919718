/** The model-routing service (spec B). */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { EmulatorState } from '../state';
import { installCors } from '../http/cors';
import { installFaults } from '../http/faults';
import { installControlRoutes } from '../control';
import { readCredential } from '../http/credentials';
import { sendRouterError } from './errors';
import { buildCatalog } from './catalog';
import type { StorageService } from '../storage/server';

export function createRouterService(state: EmulatorState, _storage: StorageService): FastifyInstance {
	const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
	// Every response carries a request id, set before anything else can answer.
	app.addHook('onRequest', async (_request, reply) => {
		reply.header('X-Service-Request-Id', randomUUID());
	});
	installCors(app);
	installFaults(app, state);
	installControlRoutes(app, state);

	app.addHook('preHandler', async (request, reply) => {
		if (request.url.startsWith('/__emulator')) return;
		const credential = readCredential(request);
		if (credential.via === 'none' || credential.value !== state.apiKey) {
			return sendRouterError(reply, 401, 'unauthorized', 'No usable credential: send X-API-Key or Authorization: Bearer.');
		}
		if (state.scenario === 'router-not-enabled') {
			return sendRouterError(reply, 403, 'not_enabled', 'The model router is not enabled for this account.');
		}
	});

	const catalog = buildCatalog();
	app.get('/v2/models', async (_request, reply) => {
		if (state.faults.catalogUnavailable) {
			return sendRouterError(reply, 503, 'service_unavailable', 'The catalog is temporarily unavailable.');
		}
		return { data: catalog, has_more: false, limit: 20 };
	});

	return app;
}
