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
import { createSurfaceApp } from './workflow/v2/server';
import { DEFAULT_DEPLOYMENT_KEY, PROXY_KEEPALIVE_MS } from './workflow/v2/core';
import type { ServerShape } from './workflow/server-shape';

export type { ServerShape };

export const DEFAULT_API_KEY = 'rb-demo-key-0123456789abcdef';
export const DEFAULT_PORTS = { workflow: 8711, router: 8712, storage: 8713, cdn: 8714, deployment: 8715, selfHosted: 8716 } as const;
export { DEFAULT_DEPLOYMENT_KEY };

export interface EmulatorOptions {
	host?: string;
	ports?: Partial<Record<keyof typeof DEFAULT_PORTS, number>>;
	scenario?: ScenarioName;
	apiKey?: string;
	/** The per-deployment endpoint's own key (v2, Bearer). */
	deploymentKey?: string;
	/** Models in the router's catalog (its own 122 are trimmed or filled with numbered copies); unset for its own. */
	catalogSize?: number;
	/** Adds test data to the catalog: a model whose id is at the spec's length limits (193 characters). */
	catalogLimitCases?: boolean;
	/** The self-hosted proxy's static token (none by default) and its exact CORS origins. */
	selfHosted?: { token?: string | null; corsOrigins?: string[] };
	/** What sets this workflow server apart in a pool (node types and model files it lacks, its speed); none for the full set. */
	server?: ServerShape;
}

export interface EmulatorUrls {
	workflow: string;
	router: string;
	storage: string;
	/** A provider CDN that sends no CORS headers (router result assets that are not copied). */
	cdn: string;
	/** v2 per-deployment endpoint (its own origin and key). */
	deployment: string;
	/** v2 self-hosted proxy (its own origin; no auth by default). */
	selfHosted: string;
}

export interface Emulator {
	urls: EmulatorUrls;
	apiKey: string;
	deploymentKey: string;
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
	const state = new EmulatorState(apiKey, options.catalogSize ?? null, options.catalogLimitCases ?? false);
	if (options.scenario) {
		if (!isScenarioName(options.scenario)) throw new Error(`emulator: unknown scenario ${String(options.scenario)}`);
		state.scenario = options.scenario;
	}
	const ports = { ...DEFAULT_PORTS, ...options.ports };
	const storage = createStorageService(state);
	const deploymentKey = options.deploymentKey ?? DEFAULT_DEPLOYMENT_KEY;
	const workflow = createWorkflowService(state, storage, {
		deploymentKey,
		selfHosted: {
			token: options.selfHosted?.token ?? null,
			corsOrigins: options.selfHosted?.corsOrigins ?? [],
			keepaliveMs: PROXY_KEEPALIVE_MS,
			upstream: null
		},
		...(options.server ? { shape: options.server } : {})
	});
	const cdn = createCdnService(state, storage.blobs);
	const router = createRouterService(state, storage, cdn);
	const deployment = createSurfaceApp(state, workflow.v2, 'deployment');
	const selfHosted = createSurfaceApp(state, workflow.v2, 'self-hosted');
	const apps = [workflow.app, router, storage.app, cdn.app, deployment, selfHosted];
	try {
		const urls: EmulatorUrls = {
			workflow: await listen(workflow.app, host, ports.workflow),
			router: await listen(router, host, ports.router),
			storage: await listen(storage.app, host, ports.storage),
			cdn: await listen(cdn.app, host, ports.cdn),
			deployment: await listen(deployment, host, ports.deployment),
			selfHosted: await listen(selfHosted, host, ports.selfHosted)
		};
		const surfaces = workflow.v2.surfaces;
		surfaces.managed.origin = urls.workflow;
		surfaces.deployment.origin = urls.deployment;
		surfaces['self-hosted'].origin = urls.selfHosted;
		storage.origin = urls.storage;
		cdn.origin = urls.cdn;
		return {
			urls,
			apiKey,
			deploymentKey,
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
