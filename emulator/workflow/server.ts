/** The workflow-execution service (spec A): v1 routes, also answered without the `/api` prefix. */
import Fastify, { type FastifyInstance } from 'fastify';
import type { EmulatorState } from '../state';
import { installCors } from '../http/cors';
import { installFaults } from '../http/faults';
import { installControlRoutes } from '../control';
import { requireWorkflowAuth } from './auth';
import { nodeDefinitions } from './nodes';
import { SocketHub } from './socket-hub';
import type { StorageService } from '../storage/server';

export interface WorkflowService {
	app: FastifyInstance;
	hub: SocketHub;
}

export function createWorkflowService(state: EmulatorState, _storage: StorageService): WorkflowService {
	const app = Fastify({ logger: false, bodyLimit: 512 * 1024 * 1024 });
	const hub = new SocketHub(state, () => 0);
	installCors(app);
	installFaults(app, state);
	installControlRoutes(app, state, { dropSockets: () => hub.dropAll() });

	/** Registers a route at `/api/<path>` and, as the local runtime does, at `/<path>`. */
	const both = (path: string) => [`/api${path}`, path];

	app.addHook('preHandler', async (request, reply) => {
		if (request.url.startsWith('/__emulator')) return;
		await requireWorkflowAuth(request, reply, state);
	});

	for (const path of both('/object_info')) {
		app.get(path, async () => nodeDefinitions([]));
	}

	app.server.on('close', () => hub.close());
	hub.attach(app.server);
	return { app, hub };
}
