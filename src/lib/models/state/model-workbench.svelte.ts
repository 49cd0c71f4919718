/**
 * The workbench of one model's page: the runs in view (every run of the model the Runs timeline has,
 * in the state it has, or the one picked), the history strip with thumbnails and video posters, the
 * comparison of picked runs, starting a run from the form, and copy as code. Made by the page with the
 * page's form and model, disposed with it; the components only show it.
 */
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import type { Json } from '$lib/core/protocol/json';
import { profiles } from '$lib/core/state/profiles.svelte';
import { flattenBody } from '$lib/workbench/rules/compare-inputs';
import { inputImageOfBody } from '$lib/workbench/rules/edit-input';
import { PosterCache } from '$lib/workbench/state/poster-frame';
import { estimateRemaining, recentDurations } from '$lib/core/rules/eta';
import { runEntries } from '$lib/core/state/run-entries.svelte';
import type { TimelineEntry } from '$lib/core/protocol/run-kernel';
import { isModelTerminal, type ModelRun } from '../rules/model-run';
import { asCurl, asFetch, asJson, asPython } from '../rules/model-copy';
import type { ModelFormStore } from './model-form.svelte';
import { modelRuns } from './model-runs.svelte';

const COPY_AS = {
	json: { make: (_url: string, _id: string, body: Json) => asJson(body), done: 'Input copied as JSON.' },
	curl: { make: asCurl, done: 'Copied as curl (the key is left as $ROUTER_API_KEY).' },
	fetch: { make: asFetch, done: 'Copied as JavaScript fetch (the key is read from ROUTER_API_KEY).' },
	python: { make: asPython, done: 'Copied as Python requests (the key is read from ROUTER_API_KEY).' }
} as const;
export type CopyKind = keyof typeof COPY_AS;

/** What a strip tile says of a run that has no picture. */
export function badgeOf(run: ModelRun): string {
	const kinds = run.result?.assets.map((a) => a.kind) ?? [];
	if (!isModelTerminal(run.status)) return run.status;
	if (run.status !== 'succeeded') return run.status;
	return kinds.includes('video') ? 'video' : kinds.includes('audio') ? 'audio' : kinds.length ? 'file' : 'text';
}

/** A queued run's likely wait, from recent runs of the same model and its queue position. */
export function etaOf(run: ModelRun): number | undefined {
	return run.status === 'queued' && run.queue?.position !== undefined
		? estimateRemaining({
				position: run.queue.position,
				recentDurations: recentDurations(runEntries.entries.values(), 'model', run.modelId)
			})
		: undefined;
}

/** The model runs of one profile and model among the timeline's entries, newest first. */
export function modelEntriesOf(entries: Iterable<TimelineEntry>, profileId: string, modelId: string): TimelineEntry[] {
	return [...entries]
		.filter((e) => e.kind === 'model' && e.profileId === profileId && e.subject === modelId)
		.sort((a, b) => b.createdAt - a.createdAt);
}

export class ModelWorkbenchStore {
	liveOpen = $state(false);
	/** The run picked in the history strip, shown alone. */
	pickedOne = $state<string | null>(null);
	comparing = $state(false);
	copied = $state('');
	/** The run started last from this page, whose 422 field errors go back to the form. */
	lastRunId = $state<string | null>(null);
	readonly picked = new SvelteSet<string>();
	/** This page's video posters, revoked when it goes. */
	private readonly posterCache = new PosterCache();
	readonly thumbs = new SvelteMap<string, string>();
	/** A frame of each video-only result, for the history strip (never the before/after sliders). */
	readonly posters = new SvelteMap<string, string>();

	activeId = $derived(profiles.activeId);
	/**
	 * This model's runs as the Runs timeline lists them, newest first: the page and the list read the same
	 * entries, so a run the list shows is never missing here (cards came from a second store, which could miss one).
	 */
	entries = $derived.by(() => (this.activeId ? modelEntriesOf(runEntries.entries.values(), this.activeId, this.modelId()) : []));
	/** Each entry's whole run, once the worker gave it (read again while the copy held is behind the entry). */
	runs = $derived(this.entries.flatMap((e) => modelRuns.runs[e.id] ?? []));

	shown = $derived(this.pickedOne ? this.runs.filter((r) => r.id === this.pickedOne) : this.runs);
	/** With one run shown: its input image and its result, for before and after (null when either is missing). */
	beforeAfter = $derived.by(() => {
		const single = this.shown.length === 1 ? this.shown[0] : undefined;
		const before = single ? inputImageOfBody(single.body) : null;
		const after = single ? this.thumbs.get(single.id) : undefined;
		return before && after ? { before, after } : null;
	});

	stripItems = $derived(
		this.runs.map((r) => ({
			id: r.id,
			label: `${new Date(r.createdAt).toLocaleString()}, ${r.status}`,
			status: r.status,
			thumb: this.thumbs.get(r.id) ?? this.posters.get(r.id) ?? null,
			badge: badgeOf(r)
		}))
	);

	compareItems = $derived(
		this.comparing
			? this.runs
					.filter((r) => this.picked.has(r.id))
					.map((r) => ({
						id: r.id,
						title: new Date(r.createdAt).toLocaleString(),
						inputs: flattenBody(r.body),
						image: this.thumbs.get(r.id) ?? null
					}))
			: []
	);

	private readonly posterAsked = new Set<string>();
	private stopEffects: (() => void) | undefined;

	constructor(
		private readonly form: ModelFormStore,
		private readonly modelId: () => string
	) {}

	/** Starts following this model's runs (thumbnails, posters, the runs kept in view, 422s). */
	start(): void {
		this.stopEffects ??= $effect.root(() => this.follow());
	}

	dispose(): void {
		this.stopEffects?.();
		this.stopEffects = undefined;
		this.posterCache.dispose();
	}

	/** Sends the form's body; an invalid form returns false (the page then focuses the first error). */
	async run(mode: 'sync' | 'queue'): Promise<boolean> {
		const activeId = this.activeId;
		if (!activeId || !this.form.form) return true;
		const seeds = this.form.prepareSeeds();
		if (!this.form.validate()) return false;
		this.liveOpen = true;
		const run = await modelRuns.start({ profileId: activeId, modelId: this.modelId(), body: this.form.body(), mode, seeds });
		if (run) {
			this.lastRunId = run.id;
			this.pickedOne = null;
			this.comparing = false;
			this.form.advanceSeeds();
		} else this.liveOpen = false;
		return true;
	}

	/** Sends a run's body again, as it was. */
	retry(run: ModelRun): void {
		this.pickedOne = null;
		void modelRuns.start({ profileId: run.profileId, modelId: run.modelId, body: run.body, mode: run.mode });
	}

	/** Shows one run of the history strip alone. */
	showOne(id: string): void {
		this.comparing = false;
		this.pickedOne = id;
		this.liveOpen = true;
	}

	compare(): void {
		this.comparing = true;
		this.liveOpen = true;
	}

	togglePick(id: string): void {
		if (this.picked.has(id)) this.picked.delete(id);
		else this.picked.add(id);
	}

	async copy(kind: CopyKind): Promise<void> {
		const text = COPY_AS[kind].make(profiles.active?.routerUrl ?? '', this.modelId(), this.form.body());
		try {
			await navigator.clipboard.writeText(text);
			this.copied = COPY_AS[kind].done;
		} catch {
			this.copied = 'The browser did not allow copying.';
		}
	}

	private follow(): void {
		// A run the timeline has that this page's copy lacks, or holds in another state, is read from the worker.
		const reading = new Set<string>();
		$effect(() => {
			for (const entry of this.entries) {
				const held = modelRuns.runs[entry.id];
				const wanted = `${entry.id}:${entry.status}:${held?.savedAt ?? 0}`;
				if ((held && held.status === entry.status) || reading.has(wanted)) continue;
				reading.add(wanted);
				void modelRuns.loadOne(entry.id);
			}
		});
		// A run still open when the page opens (after a reload, say) is shown at once, on a phone too.
		let sheetShownForOpenRun = false;
		$effect(() => {
			if (!sheetShownForOpenRun && this.runs.some((r) => !isModelTerminal(r.status))) {
				sheetShownForOpenRun = true;
				this.liveOpen = true;
			}
		});
		// A 422 from the service: each message goes to the field its loc points at.
		let appliedFor = '';
		$effect(() => {
			const run = this.lastRunId ? modelRuns.runs[this.lastRunId] : undefined;
			if (run?.fieldErrors?.length && appliedFor !== run.id) {
				appliedFor = run.id;
				this.form.applyServiceErrors(run.fieldErrors);
			}
		});
		$effect(() => {
			for (const run of this.runs) {
				const image = run.result?.assets.find((a) => a.kind === 'image' && a.bytesKey);
				if (image?.bytesKey && !this.thumbs.has(run.id))
					void modelRuns.urlFor(image.bytesKey, image.mime ?? 'image/png').then((u) => u && this.thumbs.set(run.id, u));
			}
		});
		$effect(() => {
			for (const run of this.runs) {
				const assets = run.result?.assets ?? [];
				const video = assets.some((a) => a.kind === 'image') ? undefined : assets.find((a) => a.kind === 'video' && a.bytesKey);
				if (!video?.bytesKey || this.posterAsked.has(run.id)) continue;
				this.posterAsked.add(run.id);
				void modelRuns
					.urlFor(video.bytesKey, video.mime ?? 'video/webm')
					.then((u) => (u ? this.posterCache.posterUrl(u) : null))
					.then((made) => made?.ok && this.posters.set(run.id, made.value));
			}
		});
	}
}
