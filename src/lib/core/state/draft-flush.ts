/**
 * The drafts waiting to be written (`drafts.ts` schedules them) and the one call that writes them
 * all: the update flow's, before it reloads. Its own module, so the first view carries only this.
 */
export const pendingDrafts = new Set<() => Promise<unknown>>();

export async function flushDrafts(): Promise<void> {
	await Promise.allSettled([...pendingDrafts].map((run) => run()));
}
