/**
 * What each member's queue last said was running. A member's runs are followed by polling when it
 * is not the profile in use, so a run's record may not know yet that it started; the queue read
 * the pool made does. Once the member stops answering, this is the last word on what it was
 * running: those runs are never moved.
 */
import type { QueueView } from '../../workflows';

export class SeenQueues {
	private readonly running = new Map<string, Set<string>>();

	note(profileId: string, queue: QueueView): void {
		this.running.set(profileId, new Set(queue.running.map((j) => j.promptId)));
	}

	/** Job ids the member was last seen running. */
	runningOn(profileId: string): ReadonlySet<string> {
		return this.running.get(profileId) ?? new Set();
	}
}
