/**
 * The Runs timeline as the page shows it: every run of both kinds as a compact entry, filters,
 * a selection, and actions on many runs at once. Entries follow the worker's run events live.
 */
import { SvelteSet } from 'svelte/reactivity';
import { collapseSweeps, filterTimeline, isOpen, NO_FILTER, type TimelineEntry, type TimelineFilter } from '$lib/timeline/rules/timeline';
import { onWorkerEvent, workerApi } from '$lib/core/state/worker-bridge.svelte';
import { runEntries } from '$lib/core/state/run-entries.svelte';
import { pendingDeletes } from './pending-deletes.svelte';

export class TimelineStore {
	readonly selected = new SvelteSet<string>();
	filter = $state<TimelineFilter>({ ...NO_FILTER });
	notice = $state('');
	private started = false;

	/** Every run's entry: the run kernel's page state, shared with the workflow, model and run pages. */
	get entries(): ReadonlyMap<string, TimelineEntry> {
		return runEntries.entries;
	}
	get loaded(): boolean {
		return runEntries.loaded;
	}
	get loadMs(): number {
		return runEntries.loadMs;
	}

	/** Runs waiting to be deleted (here or in another tab) are hidden until undone or gone. */
	shown = $derived(filterTimeline(collapseSweeps([...this.entries.values()].filter((e) => !pendingDeletes.hidden.has(e.id))), this.filter));
	selection = $derived(this.shown.filter((e) => this.selected.has(e.id)));

	/** Keeps the selection to runs that exist (once); the undo window's deletes are connected by the root layout. */
	private connect(): void {
		if (!this.started) {
			this.started = true;
			onWorkerEvent((event) => {
				if (event.type === 'run-deleted') this.selected.delete(event.id);
			});
		}
	}

	load(): Promise<void> {
		this.connect();
		return runEntries.load();
	}

	/** Catches up now: reconnects, polls every open run, and reloads the list. */
	async refresh(): Promise<void> {
		await workerApi().wake({ reason: 'visible' });
		await this.load();
	}

	/** The saved bytes of a model run's picture (`entry.modelThumb.key`), or null when they are gone. */
	thumbBytes(key: string): Promise<Uint8Array | null> {
		return workerApi().modelBytes({ key });
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
