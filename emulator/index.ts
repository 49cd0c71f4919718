/**
 * The Runboard emulator as a library: `createEmulator(...)` starts the workflow service, the model
 * router and a separate storage origin on loopback, and returns their URLs and a `close()`.
 * Port 0 picks free ports, so every test worker can own an emulator.
 */
import type { FastifyInstance } from 'fastify';
import { EmulatorState } from './state';
import { isScenarioName, type ScenarioName } from './scenarios';
import { createWorkflowService, type WorkflowService } from './workflow/server';
import { createRouterService } from './router/server';
import { createStorageService } from './storage/server';
import { createCdnService } from './router/cdn';

export const DEFAULT_API_KEY = 'rb-demo-key-0123456789abcdef';
export const DEFAULT_PORTS = { workflow: 8711, router: 8712, storage: 8713, cdn: 8714 } as const;

export interface EmulatorOptions {
	host?: string;
	ports?: Partial<Record<keyof typeof DEFAULT_PORTS, number>>;
	scenario?: ScenarioName;
	apiKey?: string;
}

export interface EmulatorUrls {
	workflow: string;
	router: string;
	storage: string;
	/** A provider CDN that sends no CORS headers (router result assets that are not copied). */
	cdn: string;
}

export interface Emulator {
	urls: EmulatorUrls;
	apiKey: string;
	state: EmulatorState;
	/** The workflow service's internals, for benchmarks and tests that observe it in-process. */
	workflow: WorkflowService;
	close(): Promise<void>;
}

async function listen(app: FastifyInstance, host: string, port: number): Promise<string> {
	await app.listen({ host, port });
	const address = app.server.address();
	if (address === null || typeof address === 'string') throw new Error('emulator: server has no TCP address');
	const shownHost = host.includes(':') ? `[${host}]` : host;
	return `http://${shownHost}:${address.port}`;
}

export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
	const host = options.host ?? '127.0.0.1';
	const apiKey = options.apiKey ?? DEFAULT_API_KEY;
	const state = new EmulatorState(apiKey);
	if (options.scenario) {
		if (!isScenarioName(options.scenario)) throw new Error(`emulator: unknown scenario ${String(options.scenario)}`);
		state.scenario = options.scenario;
	}
	const ports = { ...DEFAULT_PORTS, ...options.ports };
	const storage = createStorageService(state);
	const workflow = createWorkflowService(state, storage);
	const cdn = createCdnService(state, storage.blobs);
	const router = createRouterService(state, storage, cdn);
	const apps = [workflow.app, router, storage.app, cdn.app];
	try {
		const urls: EmulatorUrls = {
			workflow: await listen(workflow.app, host, ports.workflow),
			router: await listen(router, host, ports.router),
			storage: await listen(storage.app, host, ports.storage),
			cdn: await listen(cdn.app, host, ports.cdn)
		};
		storage.origin = urls.storage;
		cdn.origin = urls.cdn;
		return {
			urls,
			apiKey,
			state,
			workflow,
			// Every server ends its connections at once (forceCloseConnections), as a stopped service
			// does: waiting for a request in flight once held a test's close() for 40 s.
			async close() {
				workflow.engine.close();
				workflow.hub.close();
				await Promise.all(apps.map((a) => a.close()));
			}
		};
	} catch (error) {
		await Promise.allSettled(apps.map((a) => a.close()));
		throw error;
	}
}
