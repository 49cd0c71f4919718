/** What the worker is given by the place that assembles it: its storage, origin, channel and leader election. */
import type { KeyValueStore } from './kv-store';
import type { TestConnection } from './live-link';

export interface WorkerEnv {
	kv: KeyValueStore;
	appOrigin: string;
	fetchImpl?: typeof fetch;
	channel?: BroadcastChannel;
	/** Called once; calls back when this worker becomes the tabs' leader. */
	electLeader?: (onLeader: () => void) => void;
	randomId?: () => string;
	/** What "Test connection" asks (the workflow feature's test), given where the worker is assembled. */
	testConnection?: TestConnection;
}
