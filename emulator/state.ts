/**
 * The emulator's global state: one instance per `createEmulator` call. Scenarios, faults, the
 * clock and counters live here, so each test worker runs its own emulator and owns its state.
 */
import { type ScenarioName, type FaultSet, emptyFaults, isScenarioName } from './scenarios';

export interface Counters {
	/** Requests per route key, e.g. "GET /api/object_info". */
	requests: Record<string, number>;
	/** Provider dispatches, keyed by idempotency key or request id (the router's). */
	dispatches: Record<string, number>;
	/** Charges recorded, keyed like dispatches. */
	charges: Record<string, number>;
	/** File bytes received by the v2 upload route, per surface ("managed", "deployment", "self-hosted"). */
	uploadBytes: Record<string, number>;
}

export interface LeakRecord {
	at: string;
	method: string;
	url: string;
	/** Which credential was seen: a header name, "cookie", or "api-key-in-url". */
	carried: string[];
	origin: string | null;
}

export class EmulatorState {
	scenario: ScenarioName = 'default';
	faults: FaultSet = emptyFaults();
	/** Milliseconds added to the real clock by the control route `clock/advance`. */
	clockOffsetMs = 0;
	counters: Counters = { requests: {}, dispatches: {}, charges: {}, uploadBytes: {} };
	leaks: LeakRecord[] = [];
	private readonly resetHooks: Array<() => void> = [];

	constructor(
		readonly apiKey: string,
		/** The router catalog's size as started (`--catalog-size`); null for its own catalog. Kept by reset. */
		readonly catalogSize: number | null = null,
		/** The catalog also lists test data at the spec's length limits (a 193-character id). Kept by reset. */
		readonly catalogLimitCases = false
	) {}

	now(): number {
		return Date.now() + this.clockOffsetMs;
	}

	count(routeKey: string): void {
		this.counters.requests[routeKey] = (this.counters.requests[routeKey] ?? 0) + 1;
	}

	countUploadBytes(surface: string, bytes: number): void {
		this.counters.uploadBytes[surface] = (this.counters.uploadBytes[surface] ?? 0) + bytes;
	}

	setScenario(name: string): boolean {
		if (!isScenarioName(name)) return false;
		this.scenario = name;
		return true;
	}

	/** Services register what they must forget on reset (jobs, uploads, idempotency records). */
	onReset(hook: () => void): void {
		this.resetHooks.push(hook);
	}

	reset(): void {
		this.scenario = 'default';
		this.faults = emptyFaults();
		this.clockOffsetMs = 0;
		this.counters = { requests: {}, dispatches: {}, charges: {}, uploadBytes: {} };
		this.leaks = [];
		for (const hook of this.resetHooks) hook();
	}
}
