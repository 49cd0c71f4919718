/**
 * Control routes of the workflow service only (under `/__emulator/workflow/`): sampler speed and
 * node holds, corrupt binary frames, CORS as ComfyUI without its flag, and a restart that keeps state.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorState } from '../state';
import { CONTROL_PREFIX } from '../control';
import type { WorkflowEngine } from './engine';
import type { NodeHold, ReleaseFilter } from './holds';
import type { SocketHub } from './socket-hub';
import { badRequest, isObject, parseJson } from './http-util';
import type { CorsHeaderSetting } from './origin-check';

export function installWorkflowControlRoutes(
	app: FastifyInstance,
	state: EmulatorState,
	engine: WorkflowEngine,
	hub: SocketHub,
	down: { until: number },
	cors: CorsHeaderSetting
): void {
	const p = `${CONTROL_PREFIX}/workflow`;
	const body = (raw: unknown): Record<string, unknown> | undefined => {
		const parsed = parseJson(raw);
		if (!parsed.ok) return undefined;
		const value = parsed.value ?? {};
		return isObject(value) ? value : undefined;
	};

	app.get(`${p}/state`, async () => ({
		stepMs: engine.stepMs,
		holdNode: engine.holds.setting,
		held: engine.holds.list(),
		corruptFrames: hub.corruptFrames,
		enableCorsHeader: cors.enableCorsHeader,
		downUntil: down.until > state.now() ? new Date(down.until).toISOString() : null,
		sockets: hub.clients.size,
		queue: { running: engine.book.runningJobs().map((j) => j.id), pending: engine.book.pendingJobs().map((j) => j.id) }
	}));

	/**
	 * `{stepMs?, holdNode?}`, at least one: `stepMs` is a sampler step's time; `holdNode`
	 * (`{classType, ms}` or `{nodeId, ms}`, or null to clear) keeps every matching node busy for `ms`
	 * once it has started, in every job until changed or reset, so stops can land in a chosen node.
	 * Without `ms` (or `ms: null`) a matching node stays busy until released (`…/release`).
	 */
	app.post<{ Body: unknown }>(`${p}/timing`, async (request, reply) => {
		const b = body(request.body);
		if (!b || (!('stepMs' in b) && !('holdNode' in b))) return badRequest(reply, 'Send {"stepMs": ms} and/or {"holdNode": {...} | null}.');
		const stepMs = b['stepMs'];
		if (stepMs !== undefined && (typeof stepMs !== 'number' || !isMs(stepMs)))
			return badRequest(reply, 'stepMs must be a number of milliseconds from 0 to 60000.');
		const hold = 'holdNode' in b ? parseHold(b['holdNode']) : { ok: true as const, value: engine.holds.setting };
		if (!hold.ok) return badRequest(reply, hold.message);
		if (stepMs !== undefined) engine.stepMs = stepMs;
		engine.holds.setting = hold.value;
		return { stepMs: engine.stepMs, holdNode: engine.holds.setting };
	});

	/**
	 * `{promptId?, nodeId?}` lets the nodes held until released go on: those of one job and/or node
	 * id, or all with `{}`. The hold itself stays set: a node that starts later is held again.
	 */
	app.post<{ Body: unknown }>(`${p}/release`, async (request, reply) => {
		const b = body(request.body);
		const filter = b && parseReleaseFilter(b);
		if (!filter) return badRequest(reply, 'Send {} to release every held node, or {"promptId": "…"} and/or {"nodeId": "9"}.');
		return { released: engine.holds.release(filter) };
	});

	app.post<{ Body: unknown }>(`${p}/corrupt-frames`, async (request, reply) => {
		const enabled = body(request.body)?.['enabled'];
		if (typeof enabled !== 'boolean') return badRequest(reply, 'enabled must be a boolean.');
		hub.corruptFrames = enabled;
		return { corruptFrames: enabled };
	});

	/**
	 * `{enableCorsHeader: false}` runs the origin as ComfyUI does when started without
	 * `--enable-cors-header`: no CORS headers, a bare 403 for a request from another origin.
	 */
	app.post<{ Body: unknown }>(`${p}/cors`, async (request, reply) => {
		const enabled = body(request.body)?.['enableCorsHeader'];
		if (typeof enabled !== 'boolean') return badRequest(reply, 'enableCorsHeader must be a boolean.');
		cors.enableCorsHeader = enabled;
		// Changing a flag means a restart: open sockets drop (queue and history are kept here).
		return { enableCorsHeader: enabled, dropped: hub.dropAll() };
	});

	/**
	 * Drops every socket and answers 502 / refuses sockets for `downSeconds`. The cloud keeps jobs and
	 * history; a local ComfyUI loses its queue and history (memory only), and keeps its files.
	 */
	app.post<{ Body: unknown }>(`${p}/restart`, async (request, reply) => {
		const seconds = body(request.body)?.['downSeconds'] ?? 1;
		if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > 600)
			return badRequest(reply, 'downSeconds must be a number from 0 to 600.');
		down.until = state.now() + seconds * 1000;
		if (engine.rules.local) engine.forgetOnRestart();
		state.faults.refuseSocketsUntil = Math.max(state.faults.refuseSocketsUntil, down.until);
		return { dropped: hub.dropAll(), downUntil: new Date(down.until).toISOString() };
	});
}

const isMs = (n: number) => Number.isFinite(n) && n >= 0 && n <= 60_000;

function parseHold(raw: unknown): { ok: true; value: NodeHold | null } | { ok: false; message: string } {
	if (raw === null) return { ok: true, value: null };
	const usage =
		'holdNode must be null, {"classType": "SaveImage", "ms": 2000} or {"nodeId": "9", "ms": 2000}; without ms it holds until released.';
	if (!isObject(raw)) return { ok: false, message: usage };
	const { classType, nodeId, step } = raw;
	const ms = raw['ms'] ?? null;
	if (ms !== null && (typeof ms !== 'number' || !isMs(ms)))
		return { ok: false, message: 'holdNode.ms must be a number of milliseconds from 0 to 60000, or null to hold until released.' };
	if (step !== undefined && (typeof step !== 'number' || !Number.isInteger(step) || step < 1))
		return { ok: false, message: 'holdNode.step must be a progress step from 1 (the node is held once it has reported it).' };
	const at = step === undefined ? {} : { step };
	if (typeof classType === 'string' && classType !== '' && nodeId === undefined) return { ok: true, value: { classType, ms, ...at } };
	if (typeof nodeId === 'string' && nodeId !== '' && classType === undefined) return { ok: true, value: { nodeId, ms, ...at } };
	return { ok: false, message: usage };
}

function parseReleaseFilter(raw: Record<string, unknown>): ReleaseFilter | undefined {
	const filter: ReleaseFilter = {};
	for (const key of Object.keys(raw)) {
		const value = raw[key];
		if ((key !== 'promptId' && key !== 'nodeId') || typeof value !== 'string' || value === '') return undefined;
		filter[key] = value;
	}
	return filter;
}
