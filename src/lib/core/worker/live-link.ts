/**
 * What features plug into the core. The leader's live connection to the active profile, as the core
 * sees it: something to stop and to wake; a feature's part in deleting a profile; the connection
 * test. Which ones they are (the workflow service's socket and test) is supplied by the features
 * that know them, where the worker is assembled (`src/lib/app-worker/`).
 */
import type { ConnectionReport } from '../protocol/connection-report';
import type { SocketState } from '../protocol/socket-state';
import type { Profile } from '../rules/profile';
import type { GuardedFetch } from './guarded-fetch';

export interface LiveLink {
	stop(): void;
	/** The page woke up: reconnect now rather than at the next backoff. */
	wake(): void;
}

/** Opens the link for a profile, reporting its state; null when there is nothing to keep open (the state says why). */
export type OpenLiveLink = (profile: Profile, key: string | undefined, onState: (state: SocketState) => void) => LiveLink | null;

/** Removes what a feature keeps for a deleted profile; answers the ids of the runs it removed. */
export type ProfileDeletedHook = (profileId: string) => Promise<string[]>;

export interface ConnectionTestDeps {
	fetch: GuardedFetch;
	clientId: string;
	/** This app's origin, for the CORS advice of a self-hosted proxy. */
	appOrigin?: string;
}

/** The settings page's "Test connection" of a profile: asks each service what a run needs (the workflow feature's test). */
export type TestConnection = (profile: Profile, apiKey: string | undefined, deps: ConnectionTestDeps) => Promise<ConnectionReport>;
