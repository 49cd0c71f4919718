/** Model runs as the worker reports them, the committed-spend meter, and saved result bytes as object URLs. */
import type { AppError, Result } from '$lib/core/protocol/errors';
import { newerModelRun, type ModelRun, type SpendFacts } from '$lib/models/rules/model-run';
import type { StartModelRunInput } from '$lib/models/protocol/api';
import { onWorkerEvent, workerApi } from '$lib/core/state/worker-bridge.svelte';
import { network } from '../../core/state/network.svelte';

export class ModelRunsStore {
	runs = $state<Record<string, ModelRun>>({});
	spend = $state<Record<string, SpendFacts>>({});
	actionError = $state<AppError | null>(null);
	private subscribed = false;
	private readonly urls = new Map<string, Promise<string | null>>();

	list = $derived(Object.values(this.runs).sort((a, b) => b.createdAt - a.createdAt));

	private subscribe(): void {
		if (this.subscribed) return;
		this.subscribed = true;
		onWorkerEvent((event) => {
			if (event.type === 'model-run') this.keep(event.run);
			else if (event.type === 'model-spend') this.spend[event.profileId] = event.spend;
		});
	}

	/**
	 * Keeps the later of the copy held and the one given. A read answered after an event (the page's load
	 * while the run finished) must not put the run back: it stayed "collecting" with its timer frozen.
	 */
	private keep(run: ModelRun): void {
		const held = this.runs[run.id];
		if (newerModelRun(held, run) === run) this.runs[run.id] = run;
	}

	loaded = $state(false);
	private readonly thumbs = $state<Record<string, string>>({});

	/** Loads the saved runs (of one profile, or all of them for the Runs timeline). */
	async load(profileId?: string): Promise<void> {
		this.subscribe();
		const [runs, spend] = await Promise.all([
			workerApi().modelRuns(profileId ? { profileId } : {}),
			profileId ? workerApi().modelSpend({ profileId }) : Promise.resolve(null)
		]);
		for (const run of runs) this.keep(run);
		if (profileId && spend) this.spend[profileId] = spend;
		this.loaded = true;
	}

	async loadOne(id: string): Promise<ModelRun | null> {
		this.subscribe();
		const run = await workerApi().modelRun({ id });
		if (run) this.keep(run);
		return run ? (this.runs[id] ?? run) : null;
	}

	/** A small picture for the timeline: the first saved image of the result. */
	thumbOf(run: ModelRun): string | undefined {
		const image = run.result?.assets.find((a) => a.kind === 'image' && a.bytesKey);
		if (!image?.bytesKey) return undefined;
		const known = this.thumbs[image.bytesKey];
		if (known === undefined)
			void this.urlFor(image.bytesKey, image.mime ?? 'image/png').then((u) => u && (this.thumbs[image.bytesKey!] = u));
		return known;
	}

	/** Asset links of earlier runs of a profile that have not expired: offered as inputs of other models. */
	earlierOutputs(profileId: string, now: number): Array<{ label: string; url: string; kind: string }> {
		const out: Array<{ label: string; url: string; kind: string }> = [];
		for (const run of this.list) {
			if (run.profileId !== profileId || !run.result) continue;
			for (const asset of run.result.assets) {
				if (!asset.url || (asset.expiresAt !== undefined && asset.expiresAt <= now)) continue;
				out.push({ label: `${asset.kind} from ${run.title} (${asset.path})`, url: asset.url, kind: asset.kind });
				if (out.length >= 20) return out;
			}
		}
		return out;
	}

	forModel(profileId: string, modelId: string): ModelRun[] {
		return this.list.filter((r) => r.profileId === profileId && r.modelId === modelId);
	}

	private take(result: Result<ModelRun>): ModelRun | null {
		if (result.ok) {
			this.keep(result.value);
			this.actionError = null;
			return result.value;
		}
		this.actionError = result.error;
		return null;
	}

	async start(input: Omit<StartModelRunInput, 'offline'>): Promise<ModelRun | null> {
		this.subscribe();
		return this.take(await workerApi().startModelRun({ ...input, offline: !network.online }));
	}

	async retry(id: string): Promise<void> {
		this.take(await workerApi().retryModelRun({ id }));
	}

	async stopWaiting(id: string): Promise<void> {
		this.take(await workerApi().stopWaitingModelRun({ id }));
	}

	async cancel(id: string): Promise<void> {
		this.take(await workerApi().cancelModelRun({ id }));
	}

	/** An object URL for saved bytes (made once per key). */
	urlFor(key: string, mime: string): Promise<string | null> {
		let url = this.urls.get(key);
		if (!url) {
			url = workerApi()
				.modelBytes({ key })
				.then((bytes) => (bytes ? URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime })) : null));
			this.urls.set(key, url);
		}
		return url;
	}
}

export const modelRuns = new ModelRunsStore();
