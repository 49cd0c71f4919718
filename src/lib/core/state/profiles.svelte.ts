/** Profiles, the active one, the live connection state and the last connection reports. */
import type { ConnectionReport } from '$lib/core/protocol/connection-report';
import type { AppError, Result } from '$lib/core/protocol/errors';
import type { ProfileInput, ProfileView } from '$lib/core/rules/profile';
import type { SocketState } from '$lib/core/protocol/socket-state';
import type { DemoPreset, SaveProfileError } from '$lib/core/protocol/worker-api';
import { onWorkerEvent, workerApi } from '$lib/core/state/worker-bridge.svelte';
import type { UndoWindow } from '$lib/core/protocol/app-timings';

/** A connection test's outcome in one sentence. */
export function testedLine(report: Result<ConnectionReport> | 'testing' | undefined): string {
	if (report === undefined || report === 'testing') return '';
	if (!report.ok) return `The connection test could not run: ${report.error.message}`;
	const checks = [...report.value.workflow, ...(report.value.router ?? [])];
	const failed = checks.filter((c) => !c.ok && !c.skipped);
	return failed.length === 0
		? 'The connection test passed.'
		: `The connection test found ${failed.length} problem${failed.length === 1 ? '' : 's'}: ${failed[0]!.error?.message ?? failed[0]!.summary}`;
}

export class ProfilesStore {
	profiles = $state<ProfileView[]>([]);
	activeId = $state<string | null>(null);
	demo = $state<DemoPreset | null>(null);
	configProblem = $state<string | null>(null);
	socket = $state<SocketState>({ status: 'idle' });
	loaded = $state(false);
	/** The undo window of deletions, from the runtime config (the page's only timer from it; the worker runs the rest). */
	undo = $state<UndoWindow | null>(null);
	reports = $state<Record<string, Result<ConnectionReport> | 'testing'>>({});

	active = $derived(this.profiles.find((p) => p.id === this.activeId) ?? null);

	private loading: Promise<void> | undefined;

	/** Resolves once the profiles are loaded (the layout starts loading them). */
	whenLoaded(): Promise<void> {
		return (this.loading ??= this.load());
	}

	load(): Promise<void> {
		return (this.loading ??= this.doLoad());
	}

	private async doLoad(): Promise<void> {
		onWorkerEvent((event) => {
			if (event.type === 'profiles') {
				this.profiles = event.profiles;
				this.activeId = event.activeProfileId;
			} else if (event.type === 'socket' && (event.profileId === null || event.profileId === this.activeId)) {
				this.socket = event.state;
			}
		});
		const state = await workerApi().init({});
		this.profiles = state.profiles;
		this.activeId = state.activeProfileId;
		this.demo = state.demo;
		this.configProblem = state.configProblem;
		this.socket = state.socket;
		this.undo = state.undo;
		this.loaded = true;
	}

	save(profile: ProfileInput): Promise<Result<ProfileView, SaveProfileError>> {
		return workerApi().saveProfile({ profile });
	}

	/**
	 * Tests a profile just saved: the report shows on its card; the answer says it in a sentence.
	 * Offline it stays saved and says it could not be tested.
	 */
	async testSaved(profile: Pick<ProfileView, 'id' | 'name'>, online: boolean): Promise<string> {
		if (!online) {
			const error: AppError = {
				kind: 'network',
				message: 'Not tested: this device is offline. Test the connection once it is back online.'
			};
			this.reports[profile.id] = { ok: false, error };
			return `Saved profile ${profile.name}. It could not be tested: this device is offline.`;
		}
		await this.test(profile.id);
		return `Saved profile ${profile.name}. ${testedLine(this.reports[profile.id])}`;
	}

	async remove(id: string, keepRuns: boolean): Promise<void> {
		await workerApi().deleteProfile({ id, keepRuns });
		delete this.reports[id];
	}

	forgetKey(id: string, which: 'key' | 'partner' = 'key'): Promise<void> {
		return workerApi().forgetKey({ id, which });
	}

	activate(id: string): Promise<void> {
		return workerApi().setActiveProfile({ id });
	}

	async test(id: string): Promise<void> {
		this.reports[id] = 'testing';
		try {
			this.reports[id] = await workerApi().testConnection({ id });
		} catch (error) {
			const failure: AppError = { kind: 'unknown', message: `The connection test could not run: ${String(error)}` };
			this.reports[id] = { ok: false, error: failure };
		}
	}

	async clearAll(): Promise<void> {
		await workerApi().clearAllData({});
		this.reports = {};
		const state = await workerApi().init({});
		this.profiles = state.profiles;
		this.activeId = state.activeProfileId;
	}
}

export const profiles = new ProfilesStore();
