/**
 * What each member's queue last said, and when, kept in the worker's store (`poolseen:<profile id>`),
 * so a reload keeps it. A member's runs are followed by polling when it is not the profile in use,
 * so a run's record may not know yet that it started; the queue read the pool made does. Once the
 * member stops answering, this is the last word on what it was running: those runs are never moved,
 * after a reload too. It also keeps when a member that did not answer answers again, so its lane can
 * say so (`rules/member-seen.ts`).
 */
import { POOL_SEEN_KEY } from '../../core/protocol/storage-keys';
import type { KeyValueStore } from '../../core/worker/kv-store';
import type { QueueView } from '../../workflows';
import {
	answersAgainSince,
	NEVER_SEEN,
	parseMemberSeen,
	seenAfter,
	worthKeeping,
	type MemberSeen,
	type QueueRead
} from '../rules/member-seen';

/** How stale the stored time of an unchanged answer may get. */
const READ_AT_KEPT_EVERY_MS = 15_000;

export class SeenQueues {
	private readonly seen = new Map<string, MemberSeen>();
	/** As last written, by profile: a read that changes nothing is not written again. */
	private readonly stored = new Map<string, MemberSeen>();
	private loading: Promise<void> | undefined;

	constructor(private readonly kv: KeyValueStore) {}

	/** Reads what was kept; every other call but the two notes wants it read first. */
	ready(): Promise<void> {
		return (this.loading ??= this.load());
	}

	/** A queue read that answered. */
	note(profileId: string, queue: QueueView, now: number): Promise<void> {
		return this.apply(profileId, { kind: 'answered', running: queue.running.map((j) => j.promptId), at: now });
	}

	/** A queue read that did not answer (or the person said the member is gone). */
	noteSilent(profileId: string, now: number): Promise<void> {
		return this.apply(profileId, { kind: 'silent', at: now });
	}

	/** Job ids the member was last seen running. */
	runningOn(profileId: string): ReadonlySet<string> {
		return new Set(this.of(profileId).running);
	}

	/** When its queue last answered here; null when never. */
	lastReadAt(profileId: string): number | null {
		return this.of(profileId).readAt;
	}

	/** When it answered again after not answering: kept while it is off, for a minute once on. */
	answersAgainSince(profileId: string, enabled: boolean, now: number): number | null {
		return answersAgainSince(this.of(profileId), enabled, now);
	}

	private of(profileId: string): MemberSeen {
		return this.seen.get(profileId) ?? NEVER_SEEN;
	}

	private async apply(profileId: string, read: QueueRead): Promise<void> {
		await this.ready();
		const next = seenAfter(this.of(profileId), read);
		this.seen.set(profileId, next);
		if (!worthKeeping(this.stored.get(profileId) ?? NEVER_SEEN, next, READ_AT_KEPT_EVERY_MS)) return;
		this.stored.set(profileId, next);
		await this.kv.set(POOL_SEEN_KEY + profileId, next);
	}

	private async load(): Promise<void> {
		for (const [key, stored] of await this.kv.entries<unknown>(POOL_SEEN_KEY)) {
			const profileId = key.slice(POOL_SEEN_KEY.length);
			const value = parseMemberSeen(stored);
			// A newer read made here before the store answered wins; an unreadable record reads as never seen.
			if (this.seen.has(profileId) || !value) continue;
			this.seen.set(profileId, value);
			this.stored.set(profileId, value);
		}
	}
}
