/**
 * What each member's queue last said, and when. A member's runs are followed by polling when it is
 * not the profile in use, so a run's record may not know yet that it started; the queue read the
 * pool made does. Once the member stops answering, this is the last word on what it was running:
 * those runs are never moved. It also keeps when a member that did not answer answers again, so its
 * lane can say so.
 */
import type { QueueView } from '../../workflows';

/** How long a member that is on says it answers again; one switched off says so until it is on. */
export const BACK_NOTICE_MS = 60_000;

export class SeenQueues {
	private readonly running = new Map<string, Set<string>>();
	private readonly readAt = new Map<string, number>();
	private readonly silentSince = new Map<string, number>();
	private readonly backAt = new Map<string, number>();

	/** A queue read that answered. */
	note(profileId: string, queue: QueueView, now: number): void {
		this.running.set(profileId, new Set(queue.running.map((j) => j.promptId)));
		this.readAt.set(profileId, now);
		if (this.silentSince.delete(profileId)) this.backAt.set(profileId, now);
	}

	/** A queue read that did not answer (or the person said the member is gone). */
	noteSilent(profileId: string, now: number): void {
		if (!this.silentSince.has(profileId)) this.silentSince.set(profileId, now);
		this.backAt.delete(profileId);
	}

	/** Job ids the member was last seen running. */
	runningOn(profileId: string): ReadonlySet<string> {
		return this.running.get(profileId) ?? new Set();
	}

	/** When its queue last answered here; null when never. */
	lastReadAt(profileId: string): number | null {
		return this.readAt.get(profileId) ?? null;
	}

	/** When it answered again after not answering: kept while it is off, for a minute once on. */
	answersAgainSince(profileId: string, enabled: boolean, now: number): number | null {
		const at = this.backAt.get(profileId);
		if (at === undefined) return null;
		if (!enabled || now - at < BACK_NOTICE_MS) return at;
		this.backAt.delete(profileId);
		return null;
	}
}
