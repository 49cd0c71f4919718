/**
 * The worker's one typed API, reached from the page through comlink. Methods take one plain
 * object; events come back as one tagged union through one subscription.
 */
import type { ConnectionReport } from './connection-report';
import type { AppError, Result } from './errors';
import type { ProfileFieldErrors, ProfileInput, ProfileView } from './profile';
import type { SocketState } from './socket-state';
import type { ModelApi, ModelEvent } from '../../models';
import type { WorkflowApi, WorkflowEvent } from '../../workflows';
import type { StorageApi } from '../../storage';
import type { HistoryApi } from '../../history';
import type { TimelineApi } from '../../timeline';
import type { SweepApi, SweepEvent } from '../../sweeps';
import type { PoolApi, PoolEvent } from '../../pools';
import type { UndoWindow } from './app-timings';

export interface DemoPreset {
	name: string;
	workflowUrl: string;
	routerUrl: string;
}

export interface InitState {
	profiles: ProfileView[];
	activeProfileId: string | null;
	/** The running emulator's URLs from the runtime config (never its key); null on a hosted build. */
	demo: DemoPreset | null;
	/** Why the runtime config could not be read, when it exists but is broken. */
	configProblem: string | null;
	socket: SocketState;
	/** The delete undo window, from the runtime config's timings or the defaults. */
	undo: UndoWindow;
}

/** Events of the core: profiles and the live connection. Features add their own to the union. */
export type CoreEvent =
	| { type: 'profiles'; profiles: ProfileView[]; activeProfileId: string | null }
	| { type: 'socket'; profileId: string | null; state: SocketState }
	| { type: 'protocol-error'; profileId: string; message: string }
	/** The device's storage quota was hit; what was being saved is still shown, just not kept. */
	| { type: 'storage-full'; message: string };

export type WorkerEvent = CoreEvent | WorkflowEvent | ModelEvent | SweepEvent | PoolEvent;

export type SaveProfileError = ProfileFieldErrors & { general?: string };

/** The worker's whole API: the core plus one interface per feature, each implemented in its own folder. */
export interface WorkerApi extends CoreApi, WorkflowApi, ModelApi, StorageApi, HistoryApi, TimelineApi, SweepApi, PoolApi {}

export interface CoreApi {
	init(input: Record<string, never>): Promise<InitState>;
	/** The one subscription. Pass the listener wrapped in `Comlink.proxy`. */
	subscribe(listener: (event: WorkerEvent) => void): void;
	saveProfile(input: { profile: ProfileInput }): Promise<Result<ProfileView, SaveProfileError>>;
	deleteProfile(input: { id: string; keepRuns: boolean }): Promise<{ removedRuns: number }>;
	/** Forgets the profile's key, or with `which: 'partner'` its Comfy account key (self-hosted proxy). */
	forgetKey(input: { id: string; which?: 'key' | 'partner' }): Promise<void>;
	setActiveProfile(input: { id: string }): Promise<void>;
	testConnection(input: { id: string }): Promise<Result<ConnectionReport>>;
	/** The page saw it may have been asleep (visible again, online, pageshow): reconnect now. */
	wake(input: { reason: 'visible' | 'online' | 'pageshow' | 'focus' | 'retry' }): void;
	clearAllData(input: Record<string, never>): Promise<void>;
	/** Stops a long operation the page started with this id (a hash, an upload); see `client/cancellable`. */
	cancelOperation(input: { id: string }): void;
}
