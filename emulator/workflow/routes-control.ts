/**
 * Control routes of the workflow service only (under `/__emulator/workflow/`): sampler speed,
 * corrupt binary frames, and a restart that keeps state.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorState } from '../state';
import { CONTROL_PREFIX } from '../control';
import type { WorkflowEngine } from './engine';
import type { SocketHub } from './socket-hub';
import { badRequest, isObject, parseJson } from './http-util';

export function installWorkflowControlRoutes(
	app: FastifyInstance,
	state: EmulatorState,
	engine: WorkflowEngine,
	hub: SocketHub,
	down: { until: number }
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
		corruptFrames: hub.corruptFrames,
		downUntil: down.until > state.now() ? new Date(down.until).toISOString() : null,
		sockets: hub.clients.size,
		queue: { running: engine.book.runningJobs().map((j) => j.id), pending: engine.book.pendingJobs().map((j) => j.id) }
	}));

	app.post<{ Body: unknown }>(`${p}/timing`, async (request, reply) => {
		const b = body(request.body);
		const stepMs = b?.['stepMs'];
		if (typeof stepMs !== 'number' || !Number.isFinite(stepMs) || stepMs < 0 || stepMs > 60_000)
			return badRequest(reply, 'stepMs must be a number of milliseconds from 0 to 60000.');
		engine.stepMs = stepMs;
		return { stepMs };
	});

	app.post<{ Body: unknown }>(`${p}/corrupt-frames`, async (request, reply) => {
		const enabled = body(request.body)?.['enabled'];
		if (typeof enabled !== 'boolean') return badRequest(reply, 'enabled must be a boolean.');
		hub.corruptFrames = enabled;
		return { corruptFrames: enabled };
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
