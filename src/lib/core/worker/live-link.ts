/**
 * The leader's live connection to the active profile, as the core sees it: something to stop and
 * to wake. Which connection that is (the workflow service's socket) is supplied by the feature
 * that knows it, where the worker is assembled (`src/lib/app-worker/`).
 */
import type { SocketState } from '../protocol/socket-state';
import type { Profile } from '../rules/profile';

export interface LiveLink {
	stop(): void;
	/** The page woke up: reconnect now rather than at the next backoff. */
	wake(): void;
}

/** Opens the link for a profile, reporting its state; null when there is nothing to keep open (the state says why). */
export type OpenLiveLink = (profile: Profile, key: string | undefined, onState: (state: SocketState) => void) => LiveLink | null;

/** Removes what a feature keeps for a deleted profile; answers the ids of the runs it removed. */
export type ProfileDeletedHook = (profileId: string) => Promise<string[]>;
