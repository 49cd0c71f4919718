/**
 * What this device saw of one member's queue, kept with the pools (a reload keeps it): what it was
 * running at the last answer, when that was, and whether it stopped answering and answers again.
 * Each part is what the server itself said at a time; nothing is guessed. Pure.
 */

/** How long a member that is on says it answers again; one switched off says so until it is on. */
export const BACK_NOTICE_MS = 60_000;

export interface MemberSeen {
	/** Job ids its queue listed as running at its last answer. */
	running: string[];
	/** When its queue last answered (epoch ms); null when never here. */
	readAt: number | null;
	/** Since when it has not answered (or was said gone); null while it answers. */
	silentSince: number | null;
	/** When it answered again after not answering; null when it did not stop answering since. */
	backAt: number | null;
}

export const NEVER_SEEN: MemberSeen = { running: [], readAt: null, silentSince: null, backAt: null };

const timeOrNull = (value: unknown): value is number | null => value === null || (typeof value === 'number' && Number.isFinite(value));

/** A stored record read back (another version's, or damaged): what it says, or null to read as never seen. */
export function parseMemberSeen(value: unknown): MemberSeen | null {
	if (typeof value !== 'object' || value === null) return null;
	const { running, readAt, silentSince, backAt } = value as Record<string, unknown>;
	if (!Array.isArray(running) || !running.every((id) => typeof id === 'string')) return null;
	if (!timeOrNull(readAt) || !timeOrNull(silentSince) || !timeOrNull(backAt)) return null;
	return { running: [...(running as string[])], readAt, silentSince, backAt };
}

export type QueueRead = { kind: 'answered'; running: readonly string[]; at: number } | { kind: 'silent'; at: number };

export function seenAfter(seen: MemberSeen, read: QueueRead): MemberSeen {
	if (read.kind === 'silent') return { ...seen, silentSince: seen.silentSince ?? read.at, backAt: null };
	return {
		running: [...read.running],
		readAt: read.at,
		silentSince: null,
		backAt: seen.silentSince !== null ? read.at : seen.backAt
	};
}

/** When it answered again after not answering: said while it is off, and for a minute once it is on. */
export function answersAgainSince(seen: MemberSeen, enabled: boolean, now: number): number | null {
	if (seen.backAt === null) return null;
	return !enabled || now - seen.backAt < BACK_NOTICE_MS ? seen.backAt : null;
}

/**
 * Whether the new record must reach storage: anything the lane or a move reads changed; the time of
 * an unchanged answer only now and then (`readAtEveryMs`), so a queue read every few seconds is not a
 * write every few seconds. The stored time is then at most that much older than the last answer.
 */
export function worthKeeping(stored: MemberSeen, next: MemberSeen, readAtEveryMs: number): boolean {
	if (stored.silentSince !== next.silentSince || stored.backAt !== next.backAt) return true;
	if (stored.running.length !== next.running.length || stored.running.some((id, i) => id !== next.running[i])) return true;
	if (next.readAt === null) return false;
	return stored.readAt === null || next.readAt - stored.readAt >= readAtEveryMs;
}
