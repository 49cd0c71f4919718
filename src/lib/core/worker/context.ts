/**
 * What every feature of the worker shares: storage, profiles and keys, the guarded fetch for a
 * profile, the event channel to the page, and whether this worker is the tabs' leader.
 */
import type { AppError, Result } from '../protocol/errors';
import type { Profile } from '../rules/profile';
import type { WorkerEvent } from '../protocol/worker-api';
import type { GuardedFetch } from './guarded-fetch';
import type { GuardedUpload } from './guarded-upload';
import type { KeyValueStore } from './kv-store';
import type { ProfileRepo } from './profile-repo';
import type { Operations } from './operations';
import type { TabTopic } from './tab-channel';
import type { AppTimings } from '../protocol/app-timings';
import type { LinkHealth } from '../protocol/socket-state';
import type { ServerGate } from './server-gate';

export interface Connection {
	profile: Profile;
	key: string | undefined;
	/**
	 * A self-hosted proxy's Comfy account key, sent as `extra_data.api_key_comfy_org` for partner
	 * nodes (the proxy's own key is a static token, not an account key). Absent on other kinds.
	 */
	partnerKey?: string;
	fetch: GuardedFetch;
	upload: GuardedUpload;
	/** Tells the live link what an answer said of the server behind this one (a proxy's ComfyUI); absent in tests. */
	reportHealth?(health: LinkHealth): void;
}

export interface WorkerContext {
	readonly kv: KeyValueStore;
	readonly profiles: ProfileRepo;
	readonly appOrigin: string;
	/** Long work the page can stop by id (`cancelOperation`). */
	readonly operations: Operations;
	/** Resolves once storage, the client id and the runtime config are ready. */
	ready(): Promise<void>;
	/** The stable client id of this installation (sent as the socket `clientId`). */
	clientId(): string;
	/** A profile with its key and a fetch limited to its origins, or why there is none. */
	connection(profileId: string): Promise<Result<Connection, AppError>>;
	/** Sends an event to this tab's page (and, from the leader, to the other tabs); buffers in `transfer` move. */
	emit(event: WorkerEvent, transfer?: Transferable[]): void;
	/** Sees every event this worker emits, before the page does (indexes follow saves this way). */
	onEmit(listener: (event: WorkerEvent) => void): void;
	/** Tells the other tabs' workers that stored data of a kind changed. */
	notifyTabs(topic: TabTopic): void;
	onTabTopic(topic: TabTopic, listener: () => void): void;
	isLeader(): boolean;
	/** Called once when this worker becomes the tabs' leader. */
	onLeader(listener: () => void): void;
	/** Whether the leader's live link to this profile is open and healthy (polling can then be rare). */
	socketOpen?(profileId: string): boolean;
	/** The shared backoff of a workflow server (by origin) while it does not answer; absent in tests. */
	serverGate?(origin: string): ServerGate;
	/** Called when the live link (re)opens or the page woke up: time to catch up by polling. */
	onResync(listener: () => void): void;
	/** The app's timers from the runtime config, read once it is ready; absent means the defaults. */
	timings?(): AppTimings;
}
