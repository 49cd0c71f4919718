/**
 * The worker context a pool runs in for a test or a bench: this worker the tabs' leader, the store
 * given (one that outlives a worker stands for a reload), the profiles given, and its events passed
 * to whoever listens, as the worker's context does. Shared by the pool service's tests and the
 * makespan bench.
 */
import type { WorkerEvent } from '../../../core/protocol/worker-api';
import type { WorkerContext } from '../../../core/worker/context';
import type { KeyValueStore } from '../../../core/worker/kv-store';

export function poolContext(kv: KeyValueStore, profileIds: readonly string[], nameOf: (profileId: string) => string = (id) => id) {
	const listeners: Array<(e: WorkerEvent) => void> = [];
	const emit = (e: WorkerEvent) => listeners.forEach((l) => l(e));
	const profile = (id: string) => ({ id, name: nameOf(id) });
	const ctx = {
		kv,
		profiles: {
			list: async () => profileIds.map(profile),
			get: async (id: string) => (profileIds.includes(id) ? profile(id) : undefined)
		},
		onTabTopic: () => {},
		notifyTabs: () => {},
		isLeader: () => true,
		emit,
		onEmit: (l: (e: WorkerEvent) => void) => listeners.push(l)
	} as unknown as WorkerContext;
	return { ctx, emit };
}
