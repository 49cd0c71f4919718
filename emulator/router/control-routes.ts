/**
 * Router control routes on the router origin, under `/__emulator/router/`: rebuild the catalog,
 * settings (provider speed, limits, queue pause, the provider hold), releasing held runs, router
 * faults, and JWTs for other scopes.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONTROL_PREFIX } from '../control';
import { defaultRouterFaults, type RouterFaults, type RouterSettings } from './router-state';
import type { RouterContext } from './context';
import type { HoldSetting } from './provider/hold';

const P = `${CONTROL_PREFIX}/router`;

type Body = Record<string, unknown>;

function bad(reply: FastifyReply, message: string): FastifyReply {
	return reply.code(400).send({ error: message });
}

export const MAX_CATALOG_SIZE = 20_000;

const NUMERIC_SETTINGS = [
	'providerMs',
	'networkMs',
	'queueConcurrency',
	'inFlightLimit',
	'spendLimitCents',
	'queueTimeoutMs',
	'syncHoldMs',
	'retentionMs',
	'replayLimitBytes'
] as const;

const HOLD_USAGE = 'holdProvider must be null, {} (every run) or {"model": "<provider>/<model>"}.';

function parseHold(value: unknown): { ok: true; value: HoldSetting | null } | { ok: false; message: string } {
	if (value === null) return { ok: true, value: null };
	if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, message: HOLD_USAGE };
	const model = (value as Body)['model'] ?? null;
	if (model !== null && (typeof model !== 'string' || model === '')) return { ok: false, message: HOLD_USAGE };
	return { ok: true, value: { model } };
}

export function installRouterControlRoutes(app: FastifyInstance, ctx: RouterContext): void {
	const { router } = ctx;

	app.post<{ Body: Body }>(`${P}/catalog/rebuild`, async (request, reply) => {
		const size = (request.body ?? {})['size'];
		if (size !== undefined && size !== null && (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > MAX_CATALOG_SIZE))
			return bad(reply, `size must be null or an integer from 1 to ${MAX_CATALOG_SIZE}`);
		const generation = size === undefined ? router.rebuildCatalog() : router.rebuildCatalog(size);
		return { generation, models: router.catalog.models.length };
	});

	// `held` and `heldRuns` let a test wait until its run is held before acting "mid-run".
	app.get(`${P}/settings`, async () => ({
		settings: router.settings,
		faults: router.faults,
		held: router.providerHold.count,
		heldRuns: router.providerHold.runs()
	}));

	app.post<{ Body: Body }>(`${P}/settings`, async (request, reply) => {
		const body = request.body ?? {};
		const next: RouterSettings = { ...router.settings };
		for (const key of NUMERIC_SETTINGS) {
			const v = body[key];
			if (v === undefined) continue;
			if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return bad(reply, `${key} must be a number >= 0`);
			next[key] = v;
		}
		if (body['queuePaused'] !== undefined) {
			if (typeof body['queuePaused'] !== 'boolean') return bad(reply, 'queuePaused must be a boolean');
			next.queuePaused = body['queuePaused'];
		}
		if (body['holdProvider'] !== undefined) {
			const hold = parseHold(body['holdProvider']);
			if (!hold.ok) return bad(reply, hold.message);
			next.holdProvider = hold.value;
		}
		router.settings = next;
		router.settingsChanged();
		return { settings: router.settings, held: router.providerHold.count };
	});

	/** `{model?, count?}`: lets held runs go on, oldest first; the hold stays set for later runs. */
	app.post<{ Body: Body }>(`${P}/release`, async (request, reply) => {
		const body = request.body ?? {};
		const model = body['model'];
		const count = body['count'];
		if (model !== undefined && (typeof model !== 'string' || model === '')) return bad(reply, 'model must be a model id');
		if (count !== undefined && (typeof count !== 'number' || !Number.isInteger(count) || count < 1))
			return bad(reply, 'count must be an integer >= 1');
		const released = router.providerHold.release({
			...(model !== undefined ? { model } : {}),
			...(count !== undefined ? { count } : {})
		});
		return { released, held: router.providerHold.count };
	});

	app.post<{ Body: Body }>(`${P}/faults`, async (request, reply) => {
		const body = request.body ?? {};
		const next: RouterFaults = { ...router.faults };
		const drop = body['dropAfterDispatch'];
		if (drop !== undefined) {
			if (drop !== 'none' && drop !== 'recoverable' && drop !== 'consumed')
				return bad(reply, 'dropAfterDispatch: none | recoverable | consumed');
			next.dropAfterDispatch = drop;
		}
		const unknown = body['unknownErrorType'];
		if (unknown !== undefined) {
			if (unknown !== null && (typeof unknown !== 'string' || !/^[a-z0-9_]{1,64}$/.test(unknown)))
				return bad(reply, 'unknownErrorType: null or a snake_case name');
			next.unknownErrorType = unknown;
		}
		const status = body['unknownErrorStatus'];
		if (status !== undefined) {
			if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599)
				return bad(reply, 'unknownErrorStatus: 400-599');
			next.unknownErrorStatus = status;
		}
		const errorBody = body['errorBody'];
		if (errorBody !== undefined) {
			if (errorBody !== 'json' && errorBody !== 'html' && errorBody !== 'truncated' && errorBody !== 'text')
				return bad(reply, 'errorBody: json | html | truncated | text');
			next.errorBody = errorBody;
		}
		for (const key of ['schemaInternalError', 'rateLimited', 'runsUnavailable', 'assetCopyFails', 'cutResultOnce'] as const) {
			const v = body[key];
			if (v === undefined) continue;
			if (typeof v !== 'boolean') return bad(reply, `${key} must be a boolean`);
			next[key] = v;
		}
		router.faults = next;
		return { faults: router.faults };
	});

	app.post(`${P}/faults/clear`, async () => {
		router.faults = defaultRouterFaults();
		return { faults: router.faults };
	});

	app.post<{ Body: Body }>(`${P}/token`, async (request, reply) => {
		const body = request.body ?? {};
		const user = body['user'] ?? 'user_demo';
		const workspace = body['workspace'] === undefined ? 'ws_demo' : body['workspace'];
		const lifetime = body['lifetimeSeconds'] ?? 3600;
		if (typeof user !== 'string' || user === '') return bad(reply, 'user must be a non-empty string');
		if (workspace !== null && (typeof workspace !== 'string' || workspace === '')) return bad(reply, 'workspace must be a string or null');
		if (typeof lifetime !== 'number' || lifetime <= 0) return bad(reply, 'lifetimeSeconds must be > 0');
		return { token: router.tokens.issue({ user, workspace, nowMs: ctx.state.now(), lifetimeSeconds: lifetime }) };
	});
}
