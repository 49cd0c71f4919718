/**
 * The worker a sweep test runs in: one that is the tabs' leader, over a store that outlives it (a
 * reload keeps IndexedDB), with the ports a test gives (workflow runs, model runs) and its events
 * passed to whoever listens, as the worker's context does. Shared by the sweep service's tests.
 */
import type { WorkerEvent } from '../../../core/protocol/worker-api';
import type { WorkerContext } from '../../../core/worker/context';
import type { MemoryStore } from '../../../core/worker/kv-store';
import type { Result } from '../../../core/protocol/errors';
import { SweepService, type SweepModelPort, type SweepRunPort } from '../sweep-service';
import { CellPictures } from '../cell-pictures';

/** `thumbnailOf` stands in for the worker's image decoding, which Node has not. */
export function sweepWorker(
	kv: MemoryStore,
	ports: { runs?: SweepRunPort; models?: SweepModelPort; thumbnailOf?: (image: Blob) => Promise<Result<Blob>> }
) {
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
	const runs = ports.runs ?? ({} as SweepRunPort);
	const pictures = new CellPictures(kv, runs, ports.models ?? null, ports.thumbnailOf);
	const service = new SweepService(ctx, runs, ports.models ?? null, Date.now, pictures);
	return { api: service.api(), service, emit, becomeLeader: () => leaders.forEach((l) => l()) };
}

/** Lets the service's steps (each a few awaits on the store) run. */
export const settle = () => new Promise((r) => setTimeout(r, 20));
