/**
 * The Runs timeline as the page shows it: every run of both kinds as a compact entry, filters,
 * a selection, and actions on many runs at once. Entries follow the worker's run events live.
 */
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import {
	filterTimeline,
	isOpen,
	modelEntry,
	NO_FILTER,
	workflowEntry,
	type TimelineEntry,
	type TimelineFilter
} from '$lib/timeline/rules/timeline';
import { onWorkerEvent, workerApi } from '$lib/core/state/worker-bridge.svelte';
import { pendingDeletes } from './pending-deletes.svelte';

/** Enough rows to fill a tall screen. */
const FIRST_PAGE = 40;

export class TimelineStore {
	readonly entries = new SvelteMap<string, TimelineEntry>();
	readonly selected = new SvelteSet<string>();
	filter = $state<TimelineFilter>({ ...NO_FILTER });
	loaded = $state(false);
	/** How long the last load took, in ms (shown to benchmarks, not people). */
	loadMs = $state(0);
	notice = $state('');
	private started = false;

	/** Runs waiting to be deleted (here or in another tab) are hidden until undone or gone. */
	shown = $derived(
		filterTimeline(
			[...this.entries.values()].filter((e) => !pendingDeletes.hidden.has(e.id)),
			this.filter
		)
	);
	selection = $derived(this.shown.filter((e) => this.selected.has(e.id)));

	/** Listens to the worker and connects the undo window's deletes (once). */
	private connect(): void {
		if (!this.started) {
			this.started = true;
			pendingDeletes.start(
				(ids) => this.deleteNow(ids),
				(ids) => ids.forEach((id) => this.entries.delete(id))
			);
			onWorkerEvent((event) => {
				if (event.type === 'run') this.upsert(workflowEntry(event.run));
				else if (event.type === 'model-run') this.upsert(modelEntry(event.run));
				else if (event.type === 'run-deleted') {
					this.entries.delete(event.id);
					this.selected.delete(event.id);
				}
			});
		}
	}

	async load(): Promise<void> {
		this.connect();
		const started = performance.now();
		// The newest screenful first, read without scanning the rest; then everything behind it.
		const first = await workerApi().timeline({ limit: FIRST_PAGE });
		if (!this.loaded) for (const entry of first) this.entries.set(entry.id, entry);
		this.loaded = true;
		this.loadMs = Math.round(performance.now() - started);
		const all = await workerApi().timeline({});
		const ids = new Set(all.map((e) => e.id));
		for (const id of [...this.entries.keys()]) if (!ids.has(id)) this.entries.delete(id);
		for (const entry of all) this.upsert(entry);
	}

	private upsert(entry: TimelineEntry): void {
		const old = this.entries.get(entry.id);
		if (
			old &&
			old.status === entry.status &&
			old.thumbnail === entry.thumbnail &&
			old.title === entry.title &&
			old.firstOutput?.kind === entry.firstOutput?.kind &&
			old.firstOutput?.line === entry.firstOutput?.line &&
			old.durationMs === entry.durationMs
		)
			return;
		this.entries.set(entry.id, entry);
	}

	/** Durations of recent successful runs of one workflow or model, newest first (for wait estimates). */
	recentDurations(kind: TimelineEntry['kind'], subject: string): number[] {
		return [...this.entries.values()]
			.filter((e) => e.kind === kind && e.subject === subject && e.status === 'succeeded' && e.durationMs !== null)
			.sort((a, b) => b.createdAt - a.createdAt)
			.map((e) => e.durationMs!);
	}

	toggle(id: string): void {
		if (this.selected.has(id)) this.selected.delete(id);
		else this.selected.add(id);
	}

	selectAllShown(on: boolean): void {
		for (const entry of this.shown) {
			if (on) this.selected.add(entry.id);
			else this.selected.delete(entry.id);
		}
	}

	/** Cancels the selected runs that are still open: workflow jobs by their queue, model requests by their cancel URL. */
	async cancelSelected(): Promise<void> {
		const open = [...this.selection].filter(isOpen);
		const byProfile = new Map<string, string[]>();
		for (const e of open)
			if (e.kind === 'workflow' && e.promptId) byProfile.set(e.profileId, [...(byProfile.get(e.profileId) ?? []), e.promptId]);
		const results = await Promise.all([
			...[...byProfile].map(([profileId, promptIds]) => workerApi().cancelRuns({ profileId, promptIds })),
			...open.filter((e) => e.kind === 'model').map((e) => workerApi().cancelModelRun({ id: e.id }))
		]);
		const failed = results.filter((r) => !r.ok).length;
		this.notice = `Asked to cancel ${open.length} run${open.length === 1 ? '' : 's'}${failed ? `; ${failed} could not be asked` : ''}.`;
		this.selected.clear();
	}

	/**
	 * Deletes the selected finished runs from this device's history (the services keep their own
	 * records) when the undo window ends; until then they are hidden here and in other tabs.
	 */
	deleteSelected(): void {
		// Counted before deleting: the selection shrinks as the runs are hidden.
		const chosen = [...this.selection];
		const finished = chosen.filter((e) => !isOpen(e));
		const kept = chosen.length - finished.length;
		if (finished.length > 0) pendingDeletes.delete(finished.map((e) => e.id));
		this.notice = `Deleted ${finished.length} run${finished.length === 1 ? '' : 's'} from history${kept ? `; ${kept} still running ${kept === 1 ? 'was' : 'were'} kept` : ''}.`;
		this.selected.clear();
	}

	/** The run page's delete: one finished run, with the same undo window, offered on the Runs page it goes to. */
	deleteOne(id: string, title: string): void {
		this.connect();
		pendingDeletes.delete([id]);
		this.selected.delete(id);
		this.notice = `Deleted “${title}” from history.`;
	}

	/**
	 * When the undo window has ended: the whole batch in one worker call, deleted in one
	 * transaction, so a reload at that moment leaves all of the batch or none of it.
	 */
	private async deleteNow(ids: string[]): Promise<void> {
		const { deleted } = await workerApi().deleteRuns({ ids });
		for (const id of deleted) this.entries.delete(id);
	}

	/** Starts each selected run again with the same inputs (a model request gets a new key: a new call). */
	async rerunSelected(): Promise<void> {
		let started = 0;
		for (const e of [...this.selection]) {
			if (e.kind === 'workflow') {
				const run = await workerApi().getRun({ id: e.id });
				if (run && Object.keys(run.prompt).length > 0) {
					const result = await workerApi().submitRun({
						profileId: run.profileId,
						workflowId: run.workflowId,
						title: run.title,
						prompt: run.prompt,
						seeds: run.seeds
					});
					if (result.ok) started++;
				}
			} else {
				const run = await workerApi().modelRun({ id: e.id });
				if (run) {
					const result = await workerApi().startModelRun({
						profileId: run.profileId,
						modelId: run.modelId,
						body: run.body,
						mode: run.mode
					});
					if (result.ok) started++;
				}
			}
		}
		// No reload: each new run reaches the list through its own run event.
		this.notice = `Started ${started} run${started === 1 ? '' : 's'} again.`;
		this.selected.clear();
	}
}

export const timeline = new TimelineStore();
