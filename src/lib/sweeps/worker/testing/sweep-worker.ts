/**
 * The worker a sweep test runs in: one that is the tabs' leader, over a store that outlives it (a
 * reload keeps IndexedDB), with the ports a test gives (workflow runs, model runs) and its events
 * passed to whoever listens, as the worker's context does. Shared by the sweep service's tests.
 */
import type { WorkerEvent } from '../../../core/protocol/worker-api';
import type { WorkerContext } from '../../../core/worker/context';
import type { MemoryStore } from '../../../core/worker/kv-store';
import { SweepService, type SweepModelPort, type SweepRunPort } from '../sweep-service';

export function sweepWorker(kv: MemoryStore, ports: { runs?: SweepRunPort; models?: SweepModelPort }) {
	const leaders: Array<() => void> = [];
	const listeners: Array<(e: WorkerEvent) => void> = [];
	const emit = (e: WorkerEvent) => listeners.forEach((l) => l(e));
	const ctx = {
		kv,
		isLeader: () => true,
		onLeader: (l: () => void) => leaders.push(l),
		onTabTopic: () => {},
		notifyTabs: () => {},
		emit,
		onEmit: (l: (e: WorkerEvent) => void) => listeners.push(l)
	} as unknown as WorkerContext;
	// A model sweep's test gives no workflow port: any use of it is a mistake the test should see.
	const service = new SweepService(ctx, ports.runs ?? ({} as SweepRunPort), ports.models ?? null);
	return { api: service.api(), emit, becomeLeader: () => leaders.forEach((l) => l()) };
}

/** Lets the service's steps (each a few awaits on the store) run. */
export const settle = () => new Promise((r) => setTimeout(r, 20));
