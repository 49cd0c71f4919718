/**
 * The model-routing service (spec B): catalog, schema documents, synchronous and queued runs.
 * Hooks run in this order: request id, CORS, shared faults, authentication; routes live in routes/.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { EmulatorState } from '../state';
import type { StorageService } from '../storage/server';
import { installCors, EXPOSED_HEADERS } from '../http/cors';
import { installFaults } from '../http/faults';
import { installControlRoutes, CONTROL_PREFIX } from '../control';
import { sendRouterError } from './errors';
import { authenticate } from './auth';
import { RouterState } from './router-state';
import { setPrincipal, type RouterContext } from './context';
import { installCatalogRoutes } from './routes/catalog-routes';
import { installRunRoutes } from './routes/run-routes';
import { installQueueRoutes } from './routes/queue-routes';
import { installRouterControlRoutes } from './control-routes';
import { installErrorBodyFault } from './error-body-fault';
import { installCutResultFault } from './cut-result-fault';
import type { CdnService } from './cdn';

/** Request bodies above this answer 413 (the spec leaves the number unshown). */
export const ROUTER_BODY_LIMIT = 10 * 1024 * 1024;

export interface RouterService {
	app: FastifyInstance;
	router: RouterState;
	ctx: RouterContext;
}

export function createRouter(state: EmulatorState, storage: StorageService, cdn: CdnService): RouterService {
	// Model segments reach 128 characters; Fastify's default parameter limit (100) would answer 414.
	const app = Fastify({
		logger: false,
		forceCloseConnections: true,
		bodyLimit: ROUTER_BODY_LIMIT,
		routerOptions: { maxParamLength: 512 },
		// A URL that cannot be decoded never reaches the hooks: answer it as every router error.
		frameworkErrors: (error, request, reply) => {
			reply.header('X-Service-Request-Id', randomUUID());
			const origin = request.headers.origin;
			if (origin)
				reply
					.header('Access-Control-Allow-Origin', origin)
					.header('Vary', 'Origin')
					.header('Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', '));
			void sendRouterError(reply, 400, 'invalid_input', `Malformed request: ${error.message}`);
		}
	});
	const router = new RouterState(state);
	const ctx: RouterContext = { state, router, storage, cdn };

	// A simulated round trip (settings.networkMs), before anything can answer, preflights included.
	app.addHook('onRequest', async (request) => {
		const ms = router.settings.networkMs;
		if (ms > 0 && !request.url.startsWith(CONTROL_PREFIX)) await new Promise((resolve) => setTimeout(resolve, ms));
	});
	// Every response carries a request id, set before anything else can answer.
	app.addHook('onRequest', async (_request, reply) => {
		reply.header('X-Service-Request-Id', randomUUID());
	});
	installCors(app);
	installFaults(app, state);
	installControlRoutes(app, state);
	installRouterControlRoutes(app, ctx);
	installErrorBodyFault(app, ctx);
	installCutResultFault(app, ctx);

	app.addHook('onRequest', async (request, reply) => {
		if (request.url.startsWith(CONTROL_PREFIX) || reply.sent) return;
		const principal = authenticate(request, state.apiKey, router.tokens, state.now());
		if (!principal) {
			return sendRouterError(reply, 401, 'unauthorized', 'No usable credential: send X-API-Key or Authorization: Bearer.');
		}
		if (state.scenario === 'router-not-enabled') {
			return sendRouterError(reply, 403, 'not_enabled', 'The model router is not enabled for this account.');
		}
		setPrincipal(request, principal);
	});

	app.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, _request, reply) => {
		const status = error.statusCode ?? 500;
		if (status === 413) return sendRouterError(reply, 413, 'invalid_input', `The request body is larger than ${ROUTER_BODY_LIMIT} bytes.`);
		if (status === 415) return sendRouterError(reply, 400, 'invalid_input', 'The request body must be application/json.');
		if (status >= 400 && status < 500) return sendRouterError(reply, 400, 'invalid_input', `Malformed request: ${error.message}`);
		return sendRouterError(reply, 500, 'internal_error', 'The router failed.');
	});
	app.setNotFoundHandler((request, reply) =>
		sendRouterError(reply, 404, 'model_not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)
	);

	installCatalogRoutes(app, ctx);
	installRunRoutes(app, ctx);
	installQueueRoutes(app, ctx);
	return { app, router, ctx };
}

/** Kept for `createEmulator`: the router's Fastify app. */
export function createRouterService(state: EmulatorState, storage: StorageService, cdn: CdnService): FastifyInstance {
	return createRouter(state, storage, cdn).app;
}
