/**
 * The core of the worker API: profiles and keys in IndexedDB, the connection test, the tabs'
 * leader and channel, and (in the leader tab only) when the active profile's live link is kept open.
 * It knows no feature: they plug in through the context, `useLiveLink`, `onProfileDeleted` and the env's `testConnection`.
 */
import type { Result } from '../protocol/errors';
import { PRESETS, type ProfileInput, type ProfileView } from '../rules/profile';
import { socketAfterHealth } from '../rules/link-health';
import type { RuntimeConfig } from '../protocol/runtime-config';
import type { SocketState } from '../protocol/socket-state';
import type { ConnectionReport } from '../protocol/connection-report';
import type { CoreApi, InitState, SaveProfileError, WorkerEvent } from '../protocol/worker-api';
import { DEFAULT_TIMINGS, undoWindow } from '../protocol/app-timings';
import { CLIENT_ID_KEY as CLIENT_ID } from '../protocol/storage-keys';
import type { Connection, WorkerContext } from './context';
import { rememberDemoDeleted, seedDemoProfiles } from './demo-profiles';
import { storeProfile } from './profile-save';
import { connectionTo, testProfileConnection } from './profile-connection';
import type { LiveLink, OpenLiveLink, ProfileDeletedHook } from './live-link';
import type { WorkerEnv } from './worker-env';
import { Operations } from './operations';
import { ServerGates } from './server-gate';
import { ProfileRepo } from './profile-repo';
import { loadRuntimeConfig } from './runtime-config-load';
import type { TabMessage, TabTopic } from './tab-channel';
import * as Comlink from 'comlink';

export class RunboardWorker implements CoreApi {
	private readonly repo: ProfileRepo;
	private readonly operations = new Operations();
	private readonly listeners = new Set<(event: WorkerEvent) => void>();
	private readonly profileDeletedHooks: ProfileDeletedHook[] = [];
	private openLiveLink: OpenLiveLink | undefined;
	private readonly topicListeners = new Map<TabTopic, Array<() => void>>();
	private readonly leaderListeners: Array<() => void> = [];
	private readonly emitListeners: Array<(event: WorkerEvent) => void> = [];
	private readonly resyncListeners: Array<() => void> = [];
	readonly context: WorkerContext;
	private config: RuntimeConfig = {};
	private configProblem: string | null = null;
	private clientId = '';
	private isLeader = false;
	private socket: LiveLink | null = null;
	private socketTarget = '';
	private socketState: { profileId: string | null; state: SocketState } = { profileId: null, state: { status: 'idle' } };
	private ready: Promise<void> | undefined;
	/** One backoff per workflow server while it does not answer, shared by every reader and the socket. */
	private readonly gates: ServerGates;

	constructor(private readonly env: WorkerEnv) {
		this.repo = new ProfileRepo(env.kv);
		this.gates = new ServerGates(env.fetchImpl ?? ((input, init) => fetch(input, init)));
		env.channel?.addEventListener('message', (event: MessageEvent<TabMessage>) => void this.onTabMessage(event.data));
		this.context = {
			kv: env.kv,
			profiles: this.repo,
			operations: this.operations,
			appOrigin: env.appOrigin,
			ready: () => this.booted(),
			clientId: () => this.clientId,
			connection: (id) => this.connection(id),
			emit: (event, transfer) => this.emit(event, transfer),
			onEmit: (listener) => this.emitListeners.push(listener),
			notifyTabs: (topic) => this.env.channel?.postMessage({ type: 'topic', topic } satisfies TabMessage),
			onTabTopic: (topic, listener) => this.topicListeners.set(topic, [...(this.topicListeners.get(topic) ?? []), listener]),
			isLeader: () => this.isLeader,
			onLeader: (listener) => {
				if (this.isLeader) listener();
				else this.leaderListeners.push(listener);
			},
			serverGate: (origin) => this.gates.for(origin),
			socketOpen: (profileId) => this.socketState.profileId === profileId && this.socketState.state.status === 'open',
			onResync: (listener) => this.resyncListeners.push(listener),
			timings: () => this.config.timings ?? DEFAULT_TIMINGS
		};
	}

	/** The core's part of the worker API, as plain functions for comlink. */
	api(): CoreApi {
		return {
			init: (i) => this.init(i),
			subscribe: (l) => this.subscribe(l),
			saveProfile: (i) => this.saveProfile(i),
			deleteProfile: (i) => this.deleteProfile(i),
			forgetKey: (i) => this.forgetKey(i),
			setActiveProfile: (i) => this.setActiveProfile(i),
			testConnection: (i) => this.testConnection(i),
			wake: (i) => this.wake(i),
			clearAllData: (i) => this.clearAllData(i),
			cancelOperation: (i) => this.cancelOperation(i)
		};
	}

	/** What keeps the active profile live (the workflow feature's socket); set where the worker is assembled. */
	useLiveLink(open: OpenLiveLink): void {
		this.openLiveLink = open;
	}

	/** A feature's part in deleting a profile's runs (called unless the user keeps them). */
	onProfileDeleted(hook: ProfileDeletedHook): void {
		this.profileDeletedHooks.push(hook);
	}

	private async connection(id: string): Promise<Result<Connection>> {
		await this.booted();
		return connectionTo(this.repo, id, { ...this.env, gates: this.gates }, (health) => {
			const next = this.socketState.profileId === id ? socketAfterHealth(this.socketState.state, health) : undefined;
			if (next) this.setSocketState(id, next);
		});
	}

	private newId(): string {
		return this.env.randomId?.() ?? crypto.randomUUID();
	}

	// ---- lifecycle -------------------------------------------------------------------------

	init(_input: Record<string, never> = {}): Promise<InitState> {
		return this.booted().then(() => this.snapshot());
	}

	/** Storage, client id and config ready: what every call waits for (without reading a snapshot of the profiles). */
	private booted(): Promise<void> {
		return (this.ready ??= this.boot());
	}

	private async boot(): Promise<void> {
		this.clientId = (await this.env.kv.get<string>(CLIENT_ID)) ?? '';
		if (!this.clientId) {
			this.clientId = this.newId();
			await this.env.kv.set(CLIENT_ID, this.clientId);
		}
		const loaded = await loadRuntimeConfig(this.env.appOrigin, this.env.fetchImpl);
		if (loaded.config) this.config = loaded.config;
		if (loaded.problem) this.configProblem = loaded.problem;
		await seedDemoProfiles(this.config, this.repo, this.env.kv);
		this.env.electLeader?.(() => {
			this.isLeader = true;
			void this.retargetSocket();
			for (const listener of this.leaderListeners.splice(0)) listener();
		});
		this.env.channel?.postMessage({ type: 'hello' } satisfies TabMessage);
	}

	private async snapshot(): Promise<InitState> {
		const demo = this.config.demo;
		return {
			profiles: await this.repo.views(),
			activeProfileId: (await this.repo.activeId()) ?? null,
			demo: demo ? { name: demo.name, workflowUrl: demo.workflowUrl, routerUrl: demo.routerUrl } : null,
			configProblem: this.configProblem,
			socket: this.socketState.state,
			undo: undoWindow(this.config.timings ?? DEFAULT_TIMINGS)
		};
	}

	subscribe(listener: (event: WorkerEvent) => void): void {
		this.listeners.add(listener);
	}

	private emit(event: WorkerEvent, transfer?: Transferable[]): void {
		for (const listener of this.emitListeners) listener(event);
		// Relay to the other tabs first: a transfer to this page detaches the buffers.
		if (this.isLeader && event.type !== 'profiles') this.env.channel?.postMessage({ type: 'relay', event } satisfies TabMessage);
		for (const listener of this.listeners) listener(transfer?.length ? Comlink.transfer(event, transfer) : event);
	}

	private async dataChanged(): Promise<void> {
		await this.emitProfiles();
		this.env.channel?.postMessage({ type: 'data-changed' } satisfies TabMessage);
		await this.retargetSocket();
	}

	private async emitProfiles(): Promise<void> {
		this.emit({ type: 'profiles', profiles: await this.repo.views(), activeProfileId: (await this.repo.activeId()) ?? null });
	}

	private async onTabMessage(message: TabMessage): Promise<void> {
		switch (message.type) {
			case 'data-changed':
				await this.emitProfiles();
				await this.retargetSocket();
				return;
			case 'hello':
				if (this.isLeader) this.emit({ type: 'socket', ...this.socketState });
				return;
			case 'relay':
				if (!this.isLeader) {
					if (message.event.type === 'socket') this.socketState = { profileId: message.event.profileId, state: message.event.state };
					for (const listener of this.listeners) listener(message.event);
				}
				return;
			case 'wake':
				if (this.isLeader) this.resync();
				return;
			case 'topic':
				for (const listener of this.topicListeners.get(message.topic) ?? []) listener();
				return;
		}
	}

	// ---- profiles --------------------------------------------------------------------------

	async saveProfile({ profile: input }: { profile: ProfileInput }): Promise<Result<ProfileView, SaveProfileError>> {
		await this.booted();
		const saved = await storeProfile(this.repo, input, { newId: () => this.newId(), demoKey: this.config.demo?.apiKey });
		if (saved.ok) await this.dataChanged();
		return saved;
	}

	async deleteProfile({ id, keepRuns }: { id: string; keepRuns: boolean }): Promise<{ removedRuns: number }> {
		await this.booted();
		// Each feature removes the runs it keeps for the profile, with their bytes (hooks set where the worker is assembled).
		const removedIds: string[] = [];
		if (!keepRuns) for (const hook of this.profileDeletedHooks) removedIds.push(...(await hook(id)));
		for (const runId of removedIds) this.emit({ type: 'run-deleted', id: runId });
		await this.repo.remove(id);
		await rememberDemoDeleted(id, this.env.kv);
		const rest = await this.repo.list();
		if (!(await this.repo.activeId()) && rest[0]) await this.repo.setActive(rest[0].id);
		await this.dataChanged();
		return { removedRuns: removedIds.length };
	}

	async forgetKey({ id, which = 'key' }: { id: string; which?: 'key' | 'partner' }): Promise<void> {
		await this.booted();
		if (which === 'partner') await this.repo.forgetPartnerKey(id);
		else await this.repo.forgetKey(id);
		await this.dataChanged();
	}

	async setActiveProfile({ id }: { id: string }): Promise<void> {
		await this.booted();
		if (!(await this.repo.get(id))) return;
		await this.repo.setActive(id);
		await this.dataChanged();
	}

	async testConnection({ id }: { id: string }): Promise<Result<ConnectionReport>> {
		await this.booted();
		return testProfileConnection(this.repo, id, { ...this.env, probeClientId: `${this.clientId}-probe` });
	}

	async clearAllData(_input: Record<string, never> = {}): Promise<void> {
		this.socket?.stop();
		this.socket = null;
		this.socketTarget = '';
		await this.env.kv.clear();
		if (typeof caches !== 'undefined') {
			for (const name of await caches.keys()) if (!name.includes('precache')) await caches.delete(name);
		}
		this.ready = undefined;
		await this.booted();
		await this.dataChanged();
	}

	cancelOperation({ id }: { id: string }): void {
		this.operations.cancel(id);
	}

	// ---- live socket (leader only) ---------------------------------------------------------

	wake(_input: { reason: string } = { reason: 'visible' }): void {
		if (this.isLeader) this.resync();
		else this.env.channel?.postMessage({ type: 'wake' } satisfies TabMessage);
	}

	private resync(): void {
		this.gates.wakeAll();
		this.socket?.wake();
		for (const listener of this.resyncListeners) listener();
	}

	private setSocketState(profileId: string | null, state: SocketState): void {
		const wasOpen = this.socketState.state.status === 'open';
		this.socketState = { profileId, state };
		if (state.status === 'open' && !wasOpen) for (const listener of this.resyncListeners) listener();
		this.emit({ type: 'socket', profileId, state });
	}

	private async retargetSocket(): Promise<void> {
		if (!this.isLeader) return;
		const id = await this.repo.activeId();
		const profile = id ? await this.repo.get(id) : undefined;
		const key = profile ? await this.repo.key(profile.id) : undefined;
		const needsKey = profile ? PRESETS[profile.preset].needsKey : false;
		const target = profile && (key || !needsKey) ? `${profile.id}|${profile.workflowUrl}|${key ?? ''}` : '';
		if (target === this.socketTarget) return;
		this.socket?.stop();
		this.socket = null;
		this.socketTarget = target;
		if (!profile) return this.setSocketState(null, { status: 'idle' });
		this.socket = this.openLiveLink?.(profile, key, (state) => this.setSocketState(profile.id, state)) ?? null;
	}
}
