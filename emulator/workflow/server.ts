/** The workflow-execution service (spec A): v1 routes, also answered without the `/api` prefix. */
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { EmulatorState } from '../state';
import { installCors } from '../http/cors';
import { installOriginCheck, refusedOrigin, type CorsHeaderSetting } from './origin-check';
import { installFaults } from '../http/faults';
import { installControlRoutes, CONTROL_PREFIX } from '../control';
import { HTML_PROXY_PAGE } from '../scenarios';
import { checkWorkflowAuth } from './auth';
import { SocketHub } from './socket-hub';
import { WorkflowEngine } from './engine';
import { installJobRoutes } from './routes-jobs';
import { installComfyJobRoutes } from './routes-comfy-jobs';
import { installFileRoutes } from './routes-files';
import { installModelRoutes } from './routes-models';
import { installWorkflowControlRoutes } from './routes-control';
import { installWorkflowBenchRoutes } from './routes-bench';
import type { StorageService } from '../storage/server';
import { both, bareUnknownRoute } from './http-util';
import { MAX_UPLOAD_BYTES } from './socket-hub';
import { V2Core, V2_PREFIX, type SelfHostedConfig } from './v2/core';
import { installV2, installV2ControlRoutes } from './v2/server';
import type { ServerShape } from './server-shape';

export interface WorkflowService {
	app: FastifyInstance;
	hub: SocketHub;
	engine: WorkflowEngine;
	/** The v2 surface: managed here under /api/v2; the other two surfaces serve from it on their own origins. */
	v2: V2Core;
}

export interface V2Options {
	deploymentKey: string;
	selfHosted: SelfHostedConfig;
	/** What sets this server apart in a pool of emulated servers; none for the full set. */
	shape?: ServerShape;
}

export function createWorkflowService(state: EmulatorState, storage: StorageService, v2Options: V2Options): WorkflowService {
	const app = Fastify({
		logger: false,
		bodyLimit: 512 * 1024 * 1024,
		forceCloseConnections: true,
		routerOptions: { maxParamLength: 1024 }
	});
	let engine: WorkflowEngine | undefined;
	const hub = new SocketHub(state, () => engine?.book.remaining() ?? 0);
	engine = new WorkflowEngine(state, storage, hub, v2Options.shape);
	const v2 = new V2Core(state, engine, storage, v2Options.deploymentKey, v2Options.selfHosted);
	const down = { until: 0 };
	v2.upstreamDown = () => state.now() < down.until;
	const cors: CorsHeaderSetting = { enableCorsHeader: true };
	state.onReset(() => {
		down.until = 0;
		cors.enableCorsHeader = true;
	});
	installOriginCheck(app, cors);
	hub.refusesOrigin = (headers) => refusedOrigin(cors, headers);
	installCors(app, { enabled: () => cors.enableCorsHeader });
	installFaults(app, state);
	installControlRoutes(app, state, { dropSockets: () => hub.dropAll() });
	installWorkflowControlRoutes(app, state, engine, hub, down, cors);
	installWorkflowBenchRoutes(app, hub);
	installV2ControlRoutes(app, v2);
	void app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 16 } });

	// Bodies arrive as text: each route parses its own (a non-JSON /prompt is a 500, as in ComfyUI).
	app.removeContentTypeParser(['application/json', 'text/plain']);
	// Control routes (shared with the other origins) get their JSON parsed as Fastify would.
	const asText = (request: { url: string }, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
		if (!request.url.startsWith(CONTROL_PREFIX) || body === '') return done(null, body);
		try {
			done(null, JSON.parse(String(body)));
		} catch {
			done(Object.assign(new Error('The body is not valid JSON.'), { statusCode: 400 }));
		}
	};
	app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, asText);
	app.addContentTypeParser('*', { parseAs: 'string' }, asText);

	app.addHook('onRequest', async (request, reply) => {
		if (request.url.startsWith(CONTROL_PREFIX) || request.method === 'OPTIONS') return;
		if (state.now() < down.until) return reply.code(502).type('text/html; charset=utf-8').send(HTML_PROXY_PAGE);
		// v2 checks its own credential (Bearer only) and answers in its own error envelope.
		if (request.url === V2_PREFIX || request.url.startsWith(`${V2_PREFIX}/`)) return;
		const auth = checkWorkflowAuth(request, state);
		if (!auth.ok) return reply.code(401).send({ code: 'unauthorized', message: auth.message });
	});

	app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
		const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
		const message = status === 500 ? 'Internal server error.' : (error.message ?? 'Bad request.');
		void reply
			.code(status)
			.send({ code: status === 413 ? 'payload_too_large' : status === 500 ? 'internal_error' : 'bad_request', message });
	});

	app.setNotFoundHandler((request, reply) => {
		if (engine!.rules.local) return bareUnknownRoute(request, reply);
		return reply.code(404).send({ code: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}.` });
	});

	for (const path of both('/object_info')) app.get(path, async () => engine!.definitions());
	for (const path of both('/object_info/:nodeClass')) {
		app.get<{ Params: { nodeClass: string } }>(path, async (request) => {
			const definition = engine!.definitions()[request.params.nodeClass];
			// ComfyUI answers {} for an unknown node class.
			return definition ? { [request.params.nodeClass]: definition } : {};
		});
	}
	installJobRoutes(app, state, engine);
	installComfyJobRoutes(app, engine);
	installFileRoutes(app, state, engine, storage);
	installModelRoutes(app, engine.shape);
	installV2(app, v2, 'managed');

	app.server.on('close', () => hub.close());
	// Running jobs stop at their next checkpoint, so no timer outlives the emulator.
	app.addHook('onClose', async () => {
		engine!.interrupt(undefined);
	});
	hub.attach(app.server);
	return { app, hub, engine, v2 };
}
