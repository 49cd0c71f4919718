/**
 * How many runs a pool takes at once: per member that is on, one running and one waiting per job it
 * runs at once (a local ComfyUI runs one), which keeps each busy without filling its queue. Sweeps
 * read it at every step, so switching a member on or off moves their window at once. Pure.
 */
import type { Pool } from '../protocol/pool';

/** Runs in flight per job slot of a member: the one running, and the next one waiting behind it. */
export const RUNS_PER_SLOT = 2;

export function poolCapacity(pool: Pick<Pool, 'members'> | undefined, concurrencyOf: (profileId: string) => number = () => 1): number {
	if (!pool) return 0;
	let runs = 0;
	for (const member of pool.members) if (member.enabled) runs += RUNS_PER_SLOT * Math.max(1, concurrencyOf(member.profileId));
	return runs;
}
