/** Messages between the workers of open tabs (see leader.ts). */
import type { WorkerEvent } from '../protocol/worker-api';

/** Kinds of stored data a feature may change in one tab and the others must reload. */
export type TabTopic = 'runs-changed' | 'workflows-changed' | 'models-changed' | 'sweeps-changed' | 'pools-changed';

export type TabMessage =
	/** Profiles or settings changed in one tab: the others reload them. */
	| { type: 'data-changed' }
	/** A follower asks the leader to repeat its socket state. */
	| { type: 'hello' }
	/** The leader relays what its socket hears. */
	| { type: 'relay'; event: WorkerEvent }
	/** A follower relays a page's wake-up to the leader. */
	| { type: 'wake' }
	| { type: 'topic'; topic: TabTopic };
