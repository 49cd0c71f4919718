/**
 * Several open tabs must not each run a socket and a poller. Every tab has its own worker; the
 * workers elect one leader with the Web Locks API (the lock is released when its tab closes, and
 * the next waiting worker takes over) and talk over one BroadcastChannel.
 */

export const LEADER_LOCK = 'runboard:leader';
export const CHANNEL_NAME = 'runboard:tabs';

/** Calls `onLeader` once this worker holds the leader lock, which it then keeps for its lifetime. */
export function electLeader(onLeader: () => void): void {
	const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
	if (!locks) {
		onLeader(); // No Web Locks: assume a single tab.
		return;
	}
	void locks.request(LEADER_LOCK, () => {
		onLeader();
		return new Promise<never>(() => {});
	});
}
