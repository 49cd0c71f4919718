/**
 * Mounts v2 on an origin: under `/api/v2` of the workflow service (managed), or on an origin of its
 * own (per-deployment endpoint, self-hosted proxy) with the shared control routes.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { EmulatorState } from '../../state';
import { installControlRoutes, CONTROL_PREFIX } from '../../control';
import { installCors } from '../../http/cors';
import { installFaults } from '../../http/faults';
import { readCredential } from '../../http/credentials';
import { MAX_UPLOAD_BYTES } from '../socket-hub';
import { badRequest, isObject, parseJson } from '../http-util';
import { UPSTREAMS, V2_PREFIX, type Upstream, type V2Core } from './core';
import { v2Error } from './envelope';
import { installAssetRoutes } from './routes-assets';
import { installJobRoutes } from './routes-jobs';
import { installProxyFrontDoor, isHealthPath } from './proxy-rules';
import type { SurfaceName } from './surface';
import { paced } from '../routes-bench';

/** Registers the v2 routes of one surface under `/api/v2` of `app`, with the contract's Bearer check. */
export function installV2(app: FastifyInstance, core: V2Core, name: SurfaceName): void {
	const surface = core.surfaces[name];
	void app.register(
		async (scope) => {
			if (name !== 'self-hosted') {
				const key = name === 'managed' ? core.state.apiKey : core.deploymentKey;
				scope.addHook('onRequest', async (request, reply) => {
					if (request.method === 'OPTIONS') return;
					const credential = readCredential(request);
					if (credential.via !== 'bearer')
						return v2Error(reply, 401, 'unauthorized', 'Send the API key as Authorization: Bearer <API_KEY>.');
					if (credential.value !== key) return v2Error(reply, 401, 'unauthorized', 'Invalid API key.');
				});
			} else {
				scope.get('/health', async () => ({ status: 'ok' }));
			}
			scope.setNotFoundHandler((request, reply) =>
				v2Error(reply, 404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)
			);
			installAssetRoutes(scope, core, surface);
			installJobRoutes(scope, core, surface);
		},
		{ prefix: V2_PREFIX }
	);
}

/** `/__emulator/v2/...`: stream faults that act now, the proxy's settings and its restart. */
export function installV2ControlRoutes(app: FastifyInstance, core: V2Core): void {
	const p = `${CONTROL_PREFIX}/v2`;
	const streams = () => [...core.jobs.records.values()].flatMap((r) => [...r.channel.streams]);
	app.get(`${p}/state`, async () => ({
		selfHosted: core.selfHosted,
		surfaces: Object.fromEntries(Object.entries(core.surfaces).map(([k, s]) => [k, { origin: s.origin, openStreams: s.openStreams }])),
		jobs: [...core.jobs.records.keys()]
	}));
	app.post(`${p}/streams/drop`, async () => {
		const open = streams();
		for (const s of open) s.drop();
		return { dropped: open.length };
	});
	app.post<{ Body: unknown }>(`${p}/streams/stall`, async (request, reply) => {
		const parsed = parseJson(request.body);
		const ms = parsed.ok && isObject(parsed.value) ? parsed.value['ms'] : undefined;
		if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > 600_000) return badRequest(reply, 'ms must be 0..600000.');
		const open = streams();
		for (const s of open) s.stall(ms);
		return { stalled: open.length };
	});
	app.post<{ Body: unknown }>(`${p}/self-hosted`, async (request, reply) => {
		const parsed = parseJson(request.body);
		const body = parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
		if (!body) return badRequest(reply, 'Send {token?, corsOrigins?, keepaliveMs?, upstream?}.');
		const { token, corsOrigins, keepaliveMs, upstream } = body;
		if (token !== undefined && token !== null && (typeof token !== 'string' || token === ''))
			return badRequest(reply, 'token must be a string or null.');
		if (corsOrigins !== undefined && (!Array.isArray(corsOrigins) || !corsOrigins.every((o) => typeof o === 'string' && o !== '*')))
			return badRequest(reply, 'corsOrigins must be a list of exact origins ("*" is refused, as by the proxy).');
		if (keepaliveMs !== undefined && (typeof keepaliveMs !== 'number' || keepaliveMs < 10))
			return badRequest(reply, 'keepaliveMs must be >= 10.');
		if (upstream !== undefined && !(UPSTREAMS as readonly unknown[]).includes(upstream))
			return badRequest(reply, 'upstream must be null (the proxy as documented) or "0.3.64".');
		if (token !== undefined) core.selfHosted.token = token as string | null;
		if (corsOrigins !== undefined) core.selfHosted.corsOrigins = corsOrigins as string[];
		if (keepaliveMs !== undefined) core.selfHosted.keepaliveMs = keepaliveMs as number;
		if (upstream !== undefined) core.selfHosted.upstream = upstream as Upstream;
		return { selfHosted: core.selfHosted };
	});
	/**
	 * Benchmark: a flood of complete `progress` snapshots on one job's open streams, `perSecond` of
	 * them, past the surface's throttle (about two a second), so a client's own throttling is measured.
	 */
	app.post<{ Body: unknown }>(`${p}/bench/progress`, async (request, reply) => {
		const parsed = parseJson(request.body);
		const b = parsed.ok && isObject(parsed.value) ? parsed.value : {};
		const { jobId, count, perSecond } = b;
		const rec = typeof jobId === 'string' ? core.jobs.records.get(jobId) : undefined;
		if (!rec) return badRequest(reply, 'jobId must name a job.');
		if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 1_000_000)
			return badRequest(reply, 'count: 1 to 1000000.');
		if (typeof perSecond !== 'number' || !(perSecond > 0 && perSecond <= 100_000))
			return badRequest(reply, 'perSecond: above 0, at most 100000.');
		const total = count as number;
		const result = await paced(total, perSecond, (first, n) => {
			for (let i = first; i < first + n; i++)
				rec.channel.broadcast('progress', {
					value: (i + 1) / total,
					nodes_done: 3,
					nodes_total: 7,
					current_node: '3',
					current_node_class: 'KSampler',
					step: i + 1,
					steps: total,
					message: null
				});
		});
		return { ...result, streams: rec.channel.streams.size };
	});
	/** The proxy restarts: its streams drop and its output ids stop resolving; jobs and uploads stay. */
	app.post(`${p}/self-hosted/restart`, async () => {
		for (const r of core.jobs.records.values()) if (r.rules.name === 'self-hosted') for (const s of [...r.channel.streams]) s.drop();
		return { forgottenOutputs: core.assets.forgetOutputs('self-hosted') };
	});
}

/** A surface on an origin of its own: the per-deployment endpoint or the self-hosted proxy. */
export function createSurfaceApp(state: EmulatorState, core: V2Core, name: 'deployment' | 'self-hosted'): FastifyInstance {
	const app = Fastify({
		logger: false,
		bodyLimit: 512 * 1024 * 1024,
		forceCloseConnections: true,
		routerOptions: { maxParamLength: 1024 }
	});
	if (name === 'self-hosted') installProxyFrontDoor(app, core);
	else installCors(app);
	installFaults(app, state);
	installControlRoutes(app, state);
	installV2ControlRoutes(app, core);
	void app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 16 } });
	app.removeContentTypeParser(['application/json', 'text/plain']);
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
	app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
		const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
		if (status === 413) return v2Error(reply, 413, 'payload_too_large', error.message ?? 'Too large.');
		return v2Error(
			reply,
			status,
			status === 500 ? 'internal_error' : 'invalid_request',
			status === 500 ? 'Internal server error.' : (error.message ?? 'Bad request.')
		);
	});
	app.setNotFoundHandler((request, reply) => v2Error(reply, 404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`));
	if (name === 'self-hosted') app.get('/health', async (request, reply) => (isHealthPath(request.url) ? { status: 'ok' } : reply));
	installV2(app, core, name);
	return app;
}
