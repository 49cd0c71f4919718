/**
 * One workflow's page: its editor, the runs shown in the live pane, the history strip (with
 * thumbnails, video posters made only when needed), the comparison of picked runs, the before/after
 * slider of an edit, and copy as code. Made by the page, disposed when it goes; the components only show it.
 */
import { untrack } from 'svelte';
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import { loadedImageNames } from '$lib/workbench/rules/edit-input';
import { flattenPrompt } from '$lib/workbench/rules/compare-inputs';
import {
	WORKFLOW_KEY_VARIABLE,
	workflowAsCurl,
	workflowAsFetch,
	workflowAsPython,
	workflowTarget
} from '$lib/workflows/rules/workflow-copy';
import { workerApi } from '$lib/core/state/worker-bridge.svelte';
import { profiles } from '$lib/core/state/profiles.svelte';
import { PARTNER_KEY_LABEL, takesPartnerKey } from '$lib/core/rules/profile';
import { runEntries } from '$lib/core/state/run-entries.svelte';
import { WorkflowEditor } from './workflow-editor.svelte';
import { WorkflowRunsStore } from './workflow-runs.svelte';
import { inputClipboard } from './input-clipboard.svelte';
import type { PosterCache } from '$lib/workbench/state/poster-frame';

/** Statuses of a run that has not ended (its timeline entry's). */
const UNFINISHED: ReadonlySet<string> = new Set(['submitting', 'queued', 'running']);

/** How many earlier runs the history strip shows. */
export const STRIP_SIZE = 24;

/** The current inputs as code that sends them where this profile sends runs; the key stays an environment variable. */
const CODE_AS = {
	curl: { make: workflowAsCurl, done: 'Copied as curl.' },
	fetch: { make: workflowAsFetch, done: 'Copied as JavaScript (fetch).' },
	python: { make: workflowAsPython, done: 'Copied as Python (requests).' }
} as const;
export type CodeKind = keyof typeof CODE_AS;

export class WorkflowPageStore {
	readonly editor = new WorkflowEditor(() => profiles.activeId);
	readonly runs = new WorkflowRunsStore();

	/** The runs in the live pane: those just started, or one picked from the history strip. */
	shownIds = $state<string[]>([]);
	liveOpen = $state(false);
	comparing = $state(false);
	readonly picked = new SvelteSet<string>();
	/** Thumbnails of earlier runs by run id (an output, or a frame of a video-only run). */
	readonly thumbs = new SvelteMap<string, string>();
	/** The filename of the output copied for use as an input, for the status line. */
	copiedOutput = $state<string | null>(null);
	copiedCode = $state('');
	/** Whether the active profile runs workflows on v2; asked before any click (see `copyCode`). */
	runsOnV2 = $state(false);
	editUrls = $state<{ runId: string; before: string; after: string } | null>(null);

	/** The active profile sends partner nodes a Comfy account key of its own (a self-hosted proxy), not its API key. */
	activeTakesPartnerKey = $derived(profiles.active !== null && takesPartnerKey(profiles.active.preset));
	/** What that key's field is called in Settings. */
	readonly partnerKeyLabel = PARTNER_KEY_LABEL;
	shown = $derived(this.shownIds.flatMap((id) => this.runs.runs.get(id) ?? []));

	/** This workflow's earlier runs, newest first, from the timeline index. */
	earlier = $derived(
		this.editor.workflow
			? [...runEntries.entries.values()]
					.filter((e) => e.kind === 'workflow' && e.subject === this.editor.workflow?.id)
					.sort((a, b) => b.createdAt - a.createdAt)
					.slice(0, STRIP_SIZE)
			: []
	);

	stripItems = $derived(
		this.earlier.map((e) => ({
			id: e.id,
			label: `${new Date(e.createdAt).toLocaleString()}, ${e.status}`,
			status: e.status,
			thumb: this.thumbs.get(e.id) ?? null,
			badge: e.status === 'succeeded' ? 'No output' : e.status,
			...(e.firstOutput?.line ? { line: e.firstOutput.line } : e.firstOutput ? { kind: e.firstOutput.kind } : {})
		}))
	);

	compareItems = $derived(
		this.comparing
			? [...this.picked].flatMap((id) => {
					const run = this.runs.runs.get(id);
					return run
						? [
								{
									id,
									title: new Date(run.createdAt).toLocaleString(),
									inputs: flattenPrompt(run.prompt),
									image: this.thumbs.get(id) ?? null
								}
							]
						: [];
				})
			: []
	);

	/** A single finished run of an edit: its LoadImage picture against its first saved image, for the slider. */
	edit = $derived.by(() => {
		const run = this.shown.length === 1 ? this.shown[0] : undefined;
		if (!run || run.status !== 'succeeded') return null;
		const name = loadedImageNames(run.prompt)[0];
		const saved = run.outputs.findIndex((o) => o.kind === 'image' && o.ref.type === 'output');
		const index = saved >= 0 ? saved : run.outputs.findIndex((o) => o.kind === 'image');
		return name && index >= 0 ? { runId: run.id, profileId: run.profileId, name, index } : null;
	});

	private readonly thumbAsked = new Set<string>();
	private stopEffects: (() => void) | undefined;

	/** Opens workflow `id` (with the inputs of `inputsFrom`, a run id, when given) and starts following its runs. */
	async open(id: string, inputsFrom: string | null): Promise<void> {
		this.stopEffects ??= $effect.root(() => this.follow());
		void runEntries.load();
		await profiles.whenLoaded();
		this.runs.listen();
		await this.editor.open(id, inputsFrom);
	}

	dispose(): void {
		this.stopEffects?.();
		this.stopEffects = undefined;
		this.editor.dispose();
		this.runs.dispose();
		this.posterCache?.dispose();
	}

	/** Shows runs in the live pane, reading those not read yet. */
	show(ids: string[]): void {
		for (const id of ids) void this.runs.ensure(id);
		this.shownIds = ids;
		this.liveOpen = true;
	}

	/** Compares the runs picked in the history strip. */
	compare(): void {
		for (const id of this.picked) void this.runs.ensure(id);
		this.comparing = true;
		this.liveOpen = true;
	}

	togglePick(id: string): void {
		if (this.picked.has(id)) this.picked.delete(id);
		else this.picked.add(id);
	}

	/** Copies an output for an image input (an arrow: components are handed it as a callback). */
	readonly useAsInput = async (src: string, filename: string): Promise<void> => {
		await inputClipboard.set(src, filename);
		this.copiedOutput = filename;
	};

	/** Copies the current inputs as code; the clipboard write follows the click with no await before it (Safari). */
	async copyCode(kind: CodeKind): Promise<void> {
		const profile = profiles.active;
		if (!profile) return;
		try {
			const target = workflowTarget(profile, this.editor.currentPrompt(), this.runsOnV2);
			await navigator.clipboard.writeText(CODE_AS[kind].make(target));
			this.copiedCode = `${CODE_AS[kind].done}${target.auth ? ` Set ${WORKFLOW_KEY_VARIABLE} to your key before running it.` : ''}`;
		} catch {
			this.copiedCode = 'The browser did not allow copying.';
		}
	}

	private follow(): void {
		// Back after a reload (or from another page): this workflow's unfinished runs are shown again, as the
		// run page shows its run, rather than "Press Run" beside a small tile that says it runs.
		let resumed = false;
		$effect(() => {
			const open = this.earlier.filter((e) => UNFINISHED.has(e.status)).map((e) => e.id);
			if (resumed || open.length === 0) return;
			resumed = true;
			if (untrack(() => this.shownIds.length) === 0) this.show(open);
		});
		$effect(() => {
			const started = this.editor.lastRuns;
			if (started.length > 0) {
				for (const run of started) if (!this.runs.runs.has(run.id)) this.runs.runs.set(run.id, run);
				this.shownIds = started.map((r) => r.id);
				this.comparing = false;
			}
		});
		$effect(() => {
			for (const e of this.earlier) {
				if (this.thumbAsked.has(e.id)) continue;
				if (e.thumbnail !== null) {
					this.thumbAsked.add(e.id);
					void this.runs.outputUrl(e.id, e.thumbnail).then((r) => {
						if (r.ok) this.thumbs.set(e.id, r.value);
					});
				} else if (e.firstOutput?.kind === 'video') {
					// A video-only run stands as a frame of its first video; the frame grabber loads only then.
					this.thumbAsked.add(e.id);
					void this.videoPoster(e.id).then((url) => url && this.thumbs.set(e.id, url));
				}
			}
		});
		$effect(() => {
			const pair = this.edit;
			if (!pair) return;
			void Promise.all([this.runs.inputImageUrl(pair.profileId, pair.name), this.runs.outputUrl(pair.runId, pair.index)]).then(
				([before, after]) => {
					if (before.ok && after.ok) this.editUrls = { runId: pair.runId, before: before.value, after: after.value };
				}
			);
		});
		$effect(() => {
			const profileId = profiles.active?.id;
			this.runsOnV2 = false;
			if (!profileId) return;
			let current = true;
			void workerApi()
				.workflowSurface({ profileId })
				.then((surface) => {
					if (current) this.runsOnV2 = surface.ok && surface.value === 'v2';
				});
			return () => {
				current = false;
			};
		});
	}

	/** This page's video posters, made on first need (the frame grabber loads only then), revoked when it goes. */
	private posterCache: PosterCache | undefined;

	private async videoPoster(runId: string): Promise<string | null> {
		await this.runs.ensure(runId);
		const index = this.runs.runs.get(runId)?.outputs.findIndex((o) => o.kind === 'video') ?? -1;
		if (index < 0) return null;
		const video = await this.runs.outputUrl(runId, index);
		if (!video.ok) return null;
		const { PosterCache } = await import('$lib/workbench/state/poster-frame');
		const made = await (this.posterCache ??= new PosterCache()).posterUrl(video.value);
		return made.ok ? made.value : null;
	}
}
