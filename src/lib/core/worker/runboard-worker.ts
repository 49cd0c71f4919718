/**
 * The implementation of the worker API: profiles and keys in IndexedDB, the connection test, and
 * (in the leader tab only) the live socket of the active profile.
 */
import { fail, ok, type AppError, type Result } from '../protocol/errors';
import { readJson, responseError } from '../rules/http-response';
import {
	PRESETS,
	profileOrigins,
	validateProfileInput,
	workflowSocketUrl,
	isV2Preset,
	takesPartnerKey,
	type Profile,
	type ProfileInput,
	type ProfileView
} from '../rules/profile';
import { parseRuntimeConfig, RUNTIME_CONFIG_PATH, type DemoConfig, type RuntimeConfig } from '../protocol/runtime-config';
import type { SocketState } from '../protocol/socket-state';
import { parseServerEvent } from '../../workflows/protocol/workflow-events';
import { decodeFrame } from '../../workflows/protocol/frames';
import type { ConnectionReport } from '../protocol/connection-report';
import type { CoreApi, InitState, SaveProfileError, WorkerEvent } from '../protocol/worker-api';
import { DEFAULT_TIMINGS, undoWindow } from '../protocol/app-timings';
import type { Connection, WorkerContext } from './context';
import type { SocketMessage } from './socket-message';
import { testConnection } from './connection-test';
import { createGuardedFetch, type GuardedFetch } from './guarded-fetch';
import { createGuardedUpload } from './guarded-upload';
import type { KeyValueStore } from './kv-store';
import { LiveSocket, type AuthCheck } from './live-socket';
import { Operations } from './operations';
import { ProfileRepo } from './profile-repo';
import {
	CLIENT_ID_KEY as CLIENT_ID,
	DEMO_DELETED_KEY as DEMO_DELETED,
	DEMO_V2_DELETED_KEY as DEMO_V2_DELETED
} from '../protocol/storage-keys';
import { RunsRepo } from '../../workflows/worker/runs-repo';
import { removeModelRunsOf } from '../../models/worker/run-repo';
import type { TabMessage, TabTopic } from './tab-channel';
import * as Comlink from 'comlink';

const DEMO_ID = 'demo';
/**
 * The second demo profile: a Cloud profile on the same emulator, whose service answers the v2
 * probe, so its workflow runs go through the managed v2 jobs API (`surfaces/index.ts`).
 */
const DEMO_V2_ID = 'demo-v2';
/** Each seeded demo profile and the setting that remembers it was deleted. */
const SEEDED_DEMOS = [
	{ id: DEMO_ID, section: 'demo', preset: 'demo', deleted: DEMO_DELETED },
	{ id: DEMO_V2_ID, section: 'demoV2', preset: 'cloud', deleted: DEMO_V2_DELETED }
] as const;

export interface WorkerEnv {
	kv: KeyValueStore;
	appOrigin: string;
	fetchImpl?: typeof fetch;
	channel?: BroadcastChannel;
	/** Called once; calls back when this worker becomes the tabs' leader. */
	electLeader?: (onLeader: () => void) => void;
	randomId?: () => string;
}

export class RunboardWorker implements CoreApi {
	private readonly repo: ProfileRepo;
	private readonly operations = new Operations();
	private readonly listeners = new Set<(event: WorkerEvent) => void>();
	private readonly socketListeners = new Set<(message: SocketMessage) => void>();
	private readonly topicListeners = new Map<TabTopic, Array<() => void>>();
	private readonly leaderListeners: Array<() => void> = [];
	private readonly emitListeners: Array<(event: WorkerEvent) => void> = [];
	private readonly resyncListeners: Array<() => void> = [];
	readonly context: WorkerContext;
	private config: RuntimeConfig = {};
	private configProblem: string | null = null;
	private clientId = '';
	private isLeader = false;
	private socket: LiveSocket | undefined;
	private socketTarget = '';
	private socketState: { profileId: string | null; state: SocketState } = { profileId: null, state: { status: 'idle' } };
	private ready: Promise<void> | undefined;

	constructor(private readonly env: WorkerEnv) {
		this.repo = new ProfileRepo(env.kv);
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
			socketOpen: (profileId) => this.socketState.profileId === profileId && this.socketState.state.status === 'open',
			onResync: (listener) => this.resyncListeners.push(listener),
			onSocketMessage: (listener) => {
				this.socketListeners.add(listener);
				return () => this.socketListeners.delete(listener);
			},
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

	private async connection(id: string): Promise<Result<Connection>> {
		await this.booted();
		const [profile, key, partnerKey] = await Promise.all([this.repo.get(id), this.repo.key(id), this.repo.partnerKey(id)]);
		if (!profile)
			return fail({ kind: 'invalid-profile', message: 'This profile no longer exists; it may have been deleted.' } satisfies AppError);
		const guard = { allowedOrigins: profileOrigins(profile), appOrigin: this.env.appOrigin, fetchImpl: this.env.fetchImpl };
		const partner = takesPartnerKey(profile.preset) && partnerKey ? { partnerKey } : {};
		return ok({ profile, key, ...partner, fetch: createGuardedFetch(guard), upload: createGuardedUpload(guard) });
	}

	private fetchFor(profile: Pick<Profile, 'workflowUrl' | 'routerUrl'>): GuardedFetch {
		return createGuardedFetch({ allowedOrigins: profileOrigins(profile), appOrigin: this.env.appOrigin, fetchImpl: this.env.fetchImpl });
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
		await this.loadRuntimeConfig();
		await this.seedDemoProfile();
		this.env.electLeader?.(() => {
			this.isLeader = true;
			void this.retargetSocket();
			for (const listener of this.leaderListeners.splice(0)) listener();
		});
		this.env.channel?.postMessage({ type: 'hello' } satisfies TabMessage);
	}

	private async loadRuntimeConfig(): Promise<void> {
		const fetchImpl = this.env.fetchImpl ?? fetch;
		try {
			const res = await fetchImpl(new URL(RUNTIME_CONFIG_PATH, this.env.appOrigin).toString(), {
				cache: 'no-store',
				credentials: 'omit',
				redirect: 'error'
			});
			if (res.status === 404) return; // a hosted build ships without one
			if (!res.ok) {
				this.configProblem = `${RUNTIME_CONFIG_PATH} answered HTTP ${res.status}.`;
				return;
			}
			const parsed = parseRuntimeConfig(await res.text());
			if (parsed.ok) this.config = parsed.config;
			else this.configProblem = parsed.message;
		} catch {
			// Offline: keep whatever demo profile was saved before.
		}
	}

	/** Creates or updates the demo profiles from the runtime config (the emulator's ports may change). */
	private async seedDemoProfile(): Promise<void> {
		for (const [order, seeded] of SEEDED_DEMOS.entries()) {
			const demo = this.config[seeded.section];
			if (demo) await this.seedDemo(seeded, demo, order);
		}
	}

	private async seedDemo(seeded: (typeof SEEDED_DEMOS)[number], demo: DemoConfig, order: number): Promise<void> {
		if (await this.env.kv.get<boolean>(seeded.deleted)) return;
		const existing = await this.repo.get(seeded.id);
		// Created in the config's order, so the v1 demo stays first and active.
		const now = Date.now() + order;
		if (!existing) {
			await this.repo.put({
				id: seeded.id,
				name: demo.name,
				preset: seeded.preset,
				workflowUrl: demo.workflowUrl,
				routerUrl: demo.routerUrl,
				createdAt: now,
				updatedAt: now
			});
			await this.repo.setKey(seeded.id, demo.apiKey);
			if (!(await this.repo.activeId())) await this.repo.setActive(seeded.id);
		} else if (existing.workflowUrl !== demo.workflowUrl || existing.routerUrl !== demo.routerUrl) {
			await this.repo.put({ ...existing, workflowUrl: demo.workflowUrl, routerUrl: demo.routerUrl, updatedAt: now });
			await this.repo.setKey(seeded.id, demo.apiKey);
		}
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
		const valid = validateProfileInput(input);
		if (!valid.ok) return fail(valid.error);
		const now = Date.now();
		const existing = input.id ? await this.repo.get(input.id) : undefined;
		if (input.id && !existing) return fail({ general: 'This profile no longer exists; it may have been deleted in another tab.' });
		const profile: Profile = {
			id: existing?.id ?? this.newId(),
			name: valid.value.name,
			preset: input.preset,
			workflowUrl: valid.value.workflowUrl,
			routerUrl: valid.value.routerUrl,
			...(valid.value.comfyUrl ? { comfyUrl: valid.value.comfyUrl } : {}),
			createdAt: existing?.createdAt ?? now,
			updatedAt: now
		};
		await this.repo.put(profile);
		const typedKey = input.apiKey?.trim();
		if (typedKey) await this.repo.setKey(profile.id, typedKey);
		else if (!existing && input.preset === 'demo' && this.config.demo) await this.repo.setKey(profile.id, this.config.demo.apiKey);
		// Only a self-hosted proxy keeps a Comfy account key; a profile changed to another kind drops it.
		const typedPartnerKey = input.partnerKey?.trim();
		if (!takesPartnerKey(profile.preset)) await this.repo.forgetPartnerKey(profile.id);
		else if (typedPartnerKey) await this.repo.setPartnerKey(profile.id, typedPartnerKey);
		if (!(await this.repo.activeId())) await this.repo.setActive(profile.id);
		await this.dataChanged();
		return ok({
			...profile,
			hasKey: (await this.repo.key(profile.id)) !== undefined,
			hasPartnerKey: (await this.repo.partnerKey(profile.id)) !== undefined
		});
	}

	async deleteProfile({ id, keepRuns }: { id: string; keepRuns: boolean }): Promise<{ removedRuns: number }> {
		await this.booted();
		// Each repository removes what belongs to the profile: workflow runs and model runs, with their bytes.
		const removedIds = keepRuns
			? []
			: [...(await new RunsRepo(this.env.kv).removeProfile(id)), ...(await removeModelRunsOf(this.env.kv, id))];
		for (const runId of removedIds) this.emit({ type: 'run-deleted', id: runId });
		await this.repo.remove(id);
		const seeded = SEEDED_DEMOS.find((demo) => demo.id === id);
		if (seeded) await this.env.kv.set(seeded.deleted, true);
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
		const profile = await this.repo.get(id);
		if (!profile) return fail({ kind: 'invalid-profile', message: 'This profile no longer exists.' } satisfies AppError);
		const key = await this.repo.key(id);
		return ok(
			await testConnection(profile, key, {
				fetch: this.fetchFor(profile),
				clientId: `${this.clientId}-probe`,
				appOrigin: this.env.appOrigin
			})
		);
	}

	async clearAllData(_input: Record<string, never> = {}): Promise<void> {
		this.socket?.stop();
		this.socket = undefined;
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
		this.socket = undefined;
		this.socketTarget = target;
		if (!profile) return this.setSocketState(null, { status: 'idle' });
		// v2 profiles have no profile socket: each job's live events come over its own stream (V2StreamWatch).
		if (isV2Preset(profile.preset)) return this.setSocketState(profile.id, { status: 'open', queueRemaining: undefined });
		if (!target)
			return this.setSocketState(profile.id, {
				status: 'auth-failed',
				message: 'No API key is saved for this profile. Add one in Settings.'
			});
		const fetchFor = this.fetchFor(profile);
		const socket = new LiveSocket({
			url: workflowSocketUrl(profile.workflowUrl, this.clientId, key),
			checkAuth: () => this.checkAuth(profile, key, fetchFor),
			onState: (state) => this.setSocketState(profile.id, state),
			onText: (text) => {
				const parsed = parseServerEvent(text);
				if (!parsed.ok) return this.emit({ type: 'protocol-error', profileId: profile.id, message: parsed.message });
				if (parsed.event.type === 'status') socket.noteQueue(parsed.event.queueRemaining);
				this.toFeatures({ kind: 'event', profileId: profile.id, event: parsed.event });
			},
			onBinary: (buffer) => {
				const decoded = decodeFrame(new Uint8Array(buffer));
				if (!decoded.ok) return this.emit({ type: 'protocol-error', profileId: profile.id, message: decoded.error.message });
				this.toFeatures({ kind: 'frame', profileId: profile.id, frame: decoded.frame });
			}
		});
		this.socket = socket;
		socket.start();
	}

	private toFeatures(message: SocketMessage): void {
		for (const listener of this.socketListeners) listener(message);
	}

	private async checkAuth(profile: Profile, key: string | undefined, fetchFor: GuardedFetch): Promise<AuthCheck> {
		const res = await fetchFor({
			url: `${profile.workflowUrl}/api/object_info`,
			credential: key ? { scheme: 'x-api-key', key } : null,
			timeoutMs: 10_000
		});
		if (!res.ok) return res.error.kind === 'cors' ? { verdict: 'origin-refused', message: res.error.message } : { verdict: 'unreachable' };
		if (res.value.status === 401 || res.value.status === 403)
			return { verdict: 'refused', message: responseError(res.value, 'workflow').message };
		return readJson(res.value, 'workflow').ok ? { verdict: 'ok' } : { verdict: 'unreachable' };
	}
}
