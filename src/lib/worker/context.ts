/**
 * What every feature of the worker shares: storage, profiles and keys, the guarded fetch for a
 * profile, the event channel to the page, and whether this worker is the tabs' leader.
 */
import type { AppError, Result } from '../domain/errors';
import type { Profile } from '../domain/profile';
import type { WorkerEvent } from './api';
import type { GuardedFetch } from './guarded-fetch';
import type { KeyValueStore } from './kv-store';
import type { ProfileRepo } from './profile-repo';
import type { SocketMessage } from './runboard-worker';

export interface Connection {
	profile: Profile;
	key: string | undefined;
	fetch: GuardedFetch;
}

export interface WorkerContext {
	readonly kv: KeyValueStore;
	readonly profiles: ProfileRepo;
	readonly appOrigin: string;
	/** Resolves once storage, the client id and the runtime config are ready. */
	ready(): Promise<void>;
	/** The stable client id of this installation (sent as the socket `clientId`). */
	clientId(): string;
	/** A profile with its key and a fetch limited to its origins, or why there is none. */
	connection(profileId: string): Promise<Result<Connection, AppError>>;
	emit(event: WorkerEvent): void;
	isLeader(): boolean;
	/** Called with everything the leader's live socket hears: JSON events and decoded frames. */
	onSocketMessage(listener: (message: SocketMessage) => void): () => void;
}
