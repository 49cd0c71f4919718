/**
 * Control routes under a prefix of their own, mounted on every service origin and sharing one
 * state: reset, pick a scenario, inject faults, move the clock, read counters and the leak log.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorState } from './state';
import { SCENARIOS, emptyV2Faults, type FaultSet } from './scenarios';

export const CONTROL_PREFIX = '/__emulator';

export interface ControlHooks {
	/** Closes every open WebSocket now (fault "drop sockets"). */
	dropSockets?: () => number;
}

export function installControlRoutes(app: FastifyInstance, state: EmulatorState, hooks: ControlHooks = {}): void {
	const p = CONTROL_PREFIX;
	app.get(`${p}/state`, async () => ({
		scenario: state.scenario,
		scenarios: SCENARIOS,
		faults: state.faults,
		now: new Date(state.now()).toISOString(),
		counters: state.counters
	}));
	app.post(`${p}/reset`, async () => {
		state.reset();
		return { ok: true };
	});
	app.post<{ Body: { name?: unknown } }>(`${p}/scenario`, async (request, reply) => {
		const name = typeof request.body?.name === 'string' ? request.body.name : '';
		if (!state.setScenario(name)) {
			return reply.code(400).send({ error: `unknown scenario "${name}"`, scenarios: Object.keys(SCENARIOS) });
		}
		return { scenario: state.scenario };
	});
	app.post<{ Body: Partial<Record<keyof FaultSet, unknown>> & { refuseSocketsForSeconds?: unknown } }>(
		`${p}/faults`,
		async (request, reply) => {
			const body = request.body ?? {};
			const f = state.faults;
			for (const key of ['htmlErrorPage', 'truncatedJson', 'catalogUnavailable', 'v2InsufficientCredits', 'v2QueueFull'] as const) {
				const v = body[key];
				if (v !== undefined) {
					if (typeof v !== 'boolean') return reply.code(400).send({ error: `${key} must be a boolean` });
					f[key] = v;
				}
			}
			if (body.slowMs !== undefined) {
				if (typeof body.slowMs !== 'number' || body.slowMs < 0) return reply.code(400).send({ error: 'slowMs must be >= 0' });
				f.slowMs = body.slowMs;
			}
			for (const key of [
				'v2ScanMs',
				'v2HashDelayMs',
				'v2HoldMs',
				'v2DropAnswers',
				'v2StreamDropAfterFrames',
				'v2StreamCap',
				'v2QueueLimit'
			] as const) {
				const v = body[key];
				if (v === undefined) continue;
				const min = key === 'v2StreamCap' ? -1 : 0;
				if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
					return reply.code(400).send({ error: `${key} must be an integer >= ${min}` });
				f[key] = v;
			}
			if (body.refuseSocketsForSeconds !== undefined) {
				const s = body.refuseSocketsForSeconds;
				if (typeof s !== 'number' || s < 0) return reply.code(400).send({ error: 'refuseSocketsForSeconds must be >= 0' });
				f.refuseSocketsUntil = state.now() + s * 1000;
			}
			return { faults: f };
		}
	);
	app.post(`${p}/faults/clear`, async () => {
		state.faults = {
			...state.faults,
			htmlErrorPage: false,
			truncatedJson: false,
			slowMs: 0,
			refuseSocketsUntil: 0,
			catalogUnavailable: false,
			...emptyV2Faults()
		};
		return { faults: state.faults };
	});
	app.post(`${p}/sockets/drop`, async () => ({ dropped: hooks.dropSockets?.() ?? 0 }));
	app.post<{ Body: { ms?: unknown } }>(`${p}/clock/advance`, async (request, reply) => {
		const ms = request.body?.ms;
		if (typeof ms !== 'number' || !Number.isFinite(ms)) return reply.code(400).send({ error: 'ms must be a number' });
		state.clockOffsetMs += ms;
		return { now: new Date(state.now()).toISOString() };
	});
	app.get(`${p}/counters`, async () => state.counters);
	app.get(`${p}/leaks`, async () => ({ leaks: state.leaks }));
}
