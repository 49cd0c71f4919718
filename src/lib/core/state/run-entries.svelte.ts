/**
 * The run kernel on the page: every run of every kind as its timeline entry, loaded from the worker
 * newest screenful first and kept live from its run events. The Runs list filters it; the workflow,
 * model and run pages read recent durations (`core/rules/eta.ts`) and history from it, without
 * reaching into the timeline.
 */
import { SvelteMap } from 'svelte/reactivity';
import type { TimelineEntry } from '../protocol/run-kernel';
import { modelEntry, workflowEntry } from '../rules/run-entry';
import { onWorkerEvent, workerApi } from './worker-bridge.svelte';

/** Enough rows to fill a tall screen. */
const FIRST_PAGE = 40;

export class RunEntries {
	readonly entries = new SvelteMap<string, TimelineEntry>();
	loaded = $state(false);
	/** Whether every entry has been read (the newest screenful comes first, the rest after). */
	complete = $state(false);
	/** How long the last load took, in ms (shown to benchmarks, not people). */
	loadMs = $state(0);
	private started = false;

	/** Follows the worker's run events (once). */
	private listen(): void {
		if (this.started) return;
		this.started = true;
		onWorkerEvent((event) => {
			if (event.type === 'run') this.upsert(workflowEntry(event.run));
			else if (event.type === 'model-run') this.upsert(modelEntry(event.run));
			else if (event.type === 'run-deleted') this.entries.delete(event.id);
		});
	}

	/** `afterFirstScreen` is asked for once the newest screenful is shown, before everything behind it is read. */
	async load(afterFirstScreen?: () => void): Promise<void> {
		this.listen();
		const started = performance.now();
		// The newest screenful first, read without scanning the rest; then everything behind it.
		const first = await workerApi().timeline({ limit: FIRST_PAGE });
		if (!this.loaded) for (const entry of first) this.entries.set(entry.id, entry);
		this.loaded = true;
		this.loadMs = Math.round(performance.now() - started);
		afterFirstScreen?.();
		const all = await workerApi().timeline({});
		const ids = new Set(all.map((e) => e.id));
		for (const id of [...this.entries.keys()]) if (!ids.has(id)) this.entries.delete(id);
		for (const entry of all) this.upsert(entry);
		this.complete = true;
	}

	/** Entries read some other way (a search's newest hits, while the list is still loading). */
	show(entries: readonly TimelineEntry[]): void {
		for (const entry of entries) this.upsert(entry);
	}

	/** Drops runs deleted elsewhere (another tab's undo window ended). */
	remove(ids: readonly string[]): void {
		for (const id of ids) this.entries.delete(id);
	}

	/**
	 * When an undo window has ended: the whole batch in one worker call, deleted in one
	 * transaction, so a reload at that moment leaves all of the batch or none of it.
	 */
	async deleteRuns(ids: string[]): Promise<void> {
		const { deleted } = await workerApi().deleteRuns({ ids });
		this.remove(deleted);
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
}

export const runEntries = new RunEntries();
