/**
 * The Runs timeline as the page shows it: every run of both kinds as a compact entry, filters,
 * a selection, and actions on many runs at once. Entries follow the worker's run events live.
 */
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import type { Star } from '$lib/timeline/protocol/api';
import { collapseSweeps, filterTimeline, isOpen, NO_FILTER, type TimelineEntry, type TimelineFilter } from '$lib/timeline/rules/timeline';
import { onWorkerEvent, workerApi } from '$lib/core/state/worker-bridge.svelte';
import { runEntries } from '$lib/core/state/run-entries.svelte';
import { pendingDeletes } from './pending-deletes.svelte';
import { parseQuery } from '$lib/timeline/rules/search-query';

/** What the worker's search answered for one query. */
interface Found {
	query: string;
	ids: ReadonlySet<string>;
	where: ReadonlyMap<string, string>;
	ms: number;
	/** When it was asked (the page's clock, as run entries' times are). */
	at: number;
	/** How many runs it found: the count shown while the list is still loading. */
	total: number;
}

/** Rows of a search's newest hits the worker sends with its answer while the list is loading: a screenful and more. */
const HIT_ENTRIES = 60;

/** The actions on many runs and the saving of starred outputs, loaded on first use: not part of the first view. */
const bulkActions = () => import('./bulk-actions');

/** Typing pauses this long before the worker is asked: a word typed fast is one search. */
const SEARCH_PAUSE_MS = 120;
/** Saves come in bursts (progress); the search is asked again this long after one. */
const RESEARCH_PAUSE_MS = 1000;

export class TimelineStore {
	readonly selected = new SvelteSet<string>();
	/** Starred runs (or runs with starred outputs), by run id. */
	readonly stars = new SvelteMap<string, Star>();
	filter = $state<TimelineFilter>({ ...NO_FILTER });
	notice = $state('');
	/** The worker's answer for the text searched last; an older query's answer never replaces a newer one's. */
	found = $state.raw<Found | null>(null);
	/** The run whose box was picked last: Shift with a click selects from it to the one clicked. */
	private anchor: string | null = null;
	private started = false;
	private searchTimer: ReturnType<typeof setTimeout> | undefined;
	private searchCount = 0;

	/** Every run's entry: the run kernel's page state, shared with the workflow, model and run pages. */
	get entries(): ReadonlyMap<string, TimelineEntry> {
		return runEntries.entries;
	}
	get loaded(): boolean {
		return runEntries.loaded;
	}
	/** Whether every entry is read (the newest screenful comes first). */
	get complete(): boolean {
		return runEntries.complete;
	}
	get loadMs(): number {
		return runEntries.loadMs;
	}

	/** Runs waiting to be deleted (here or in another tab) are hidden until undone or gone. */
	shown = $derived(
		filterTimeline(collapseSweeps([...this.entries.values()].filter((e) => !pendingDeletes.hidden.has(e.id))), this.filter, {
			...(this.found?.query === this.filter.text ? { found: this.found.ids, foundAt: this.found.at } : {}),
			starred: new Set(this.stars.keys())
		})
	);
	/**
	 * How many runs the search found: counted in the list once it is whole; before that, the worker's
	 * count when the text is the only filter (other filters need the list).
	 */
	foundCount = $derived(
		!runEntries.complete &&
			this.found?.query === this.filter.text &&
			Object.entries(this.filter).every(([k, v]) => k === 'text' || v === NO_FILTER[k as keyof TimelineFilter])
			? this.found.total
			: this.shown.length
	);
	/** The searched words, for marking them in the rows. */
	words = $derived(parseQuery(this.filter.text).map((t) => t.text));
	/** Whether the list shows the worker's answer for the text in the box (not yet: the entries' words are matched). */
	searched = $derived(this.filter.text.trim() === '' || this.found?.query === this.filter.text);

	/** What the search matched in a run, when it answered with it. */
	whereOf(id: string): string | undefined {
		return this.found?.query === this.filter.text ? this.found.where.get(id) : undefined;
	}

	/** The search box changed: the worker searches every run of every profile once typing pauses. */
	setText(text: string): void {
		this.filter.text = text;
		if (this.searchTimer !== undefined) clearTimeout(this.searchTimer);
		this.searchTimer = undefined;
		if (text.trim() === '') {
			this.found = null;
			return;
		}
		this.searchTimer = setTimeout(() => {
			this.searchTimer = undefined;
			void this.search(text);
		}, SEARCH_PAUSE_MS);
	}

	private async search(query: string): Promise<void> {
		const count = ++this.searchCount;
		const at = Date.now();
		try {
			// While the list is loading, the worker answers from its texts alone and sends the newest hits' rows.
			const answer = await workerApi().searchRuns({ query, entries: runEntries.complete ? 0 : HIT_ENTRIES });
			if (count !== this.searchCount) return;
			runEntries.show(answer.entries);
			this.found = {
				query,
				ids: new Set(answer.hits.map((h) => h.id)),
				where: new Map(answer.hits.flatMap((h) => (h.where ? [[h.id, h.where] as const] : []))),
				ms: answer.ms,
				at,
				total: answer.hits.length
			};
		} catch (error) {
			if (count === this.searchCount) this.notice = `Search failed: ${error instanceof Error ? error.message : String(error)}`;
		}
	}
	selection = $derived(this.shown.filter((e) => this.selected.has(e.id)));

	/** Keeps the selection to runs that exist (once); the undo window's deletes are connected by the root layout. */
	private connect(): void {
		if (!this.started) {
			this.started = true;
			onWorkerEvent((event) => {
				if (event.type === 'run-deleted') this.selected.delete(event.id);
				// A run saved while a search is shown: asked again once saves pause, so every field of it is matched.
				if ((event.type === 'run' || event.type === 'model-run') && this.filter.text.trim() !== '' && this.searchTimer === undefined)
					this.searchTimer = setTimeout(() => {
						this.searchTimer = undefined;
						void this.search(this.filter.text);
					}, RESEARCH_PAUSE_MS);
			});
		}
	}

	async load(): Promise<void> {
		this.connect();
		// The search texts are read once the first screenful is shown, so a first search does not wait for them.
		// A failed read costs nothing now: the search reads them itself.
		const prepareSearch = () =>
			void workerApi()
				.prepareSearch({})
				.catch(() => undefined);
		await Promise.all([runEntries.load(prepareSearch), this.loadStars()]);
	}

	/** Reads the stars (the Runs list does with its entries; a run page opened first, alone). */
	async loadStars(): Promise<void> {
		const stars = await workerApi().stars({});
		this.stars.clear();
		for (const star of stars) this.stars.set(star.runId, star);
	}

	/**
	 * Stars or unstars a run (no `output`) or one of its outputs. A starred workflow run's outputs are
	 * read once so their bytes are on this device (the service may not keep them); model results are
	 * saved as they arrive.
	 */
	async setStar(runId: string, on: boolean, output?: number): Promise<void> {
		const star = await workerApi().setStar({ runId, on, ...(output === undefined ? {} : { output }) });
		if (star) this.stars.set(runId, star);
		else this.stars.delete(runId);
		if (!on) return;
		const said = await (await bulkActions()).keepStarredOutputs(runId, output);
		if (said) this.notice = said;
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

	/** Picks or unpicks one run; with `range`, every shown run from the last one picked to this one alike. */
	toggle(id: string, range = false): void {
		const on = !this.selected.has(id);
		const from = range && this.anchor !== null ? this.shown.findIndex((e) => e.id === this.anchor) : -1;
		const to = this.shown.findIndex((e) => e.id === id);
		if (from >= 0 && to >= 0) {
			for (const entry of this.shown.slice(Math.min(from, to), Math.max(from, to) + 1)) {
				if (on) this.selected.add(entry.id);
				else this.selected.delete(entry.id);
			}
		} else if (on) this.selected.add(id);
		else this.selected.delete(id);
		this.anchor = id;
	}

	selectAllShown(on: boolean): void {
		for (const entry of this.shown) {
			if (on) this.selected.add(entry.id);
			else this.selected.delete(entry.id);
		}
	}

	/**
	 * Cancels the selected runs that are still open: workflow jobs by their server's queue (one
	 * request per server), model requests one by one by their cancel URL; says what each confirmed.
	 */
	async cancelSelected(profileName: (id: string) => string | undefined = () => undefined): Promise<void> {
		const open = this.selection.filter(isOpen);
		this.notice = await (await bulkActions()).cancelEntries(open, profileName);
		this.selected.clear();
	}

	/** Downloads the selected runs as a history file (JSON, outputs saved here included), which Import in Settings reads back. */
	async exportSelected(): Promise<void> {
		this.notice = await (await bulkActions()).exportEntries(this.selection.map((e) => e.id));
	}

	/**
	 * Deletes the selected finished runs from this device's history (the services keep their own
	 * records; `deleteSelectedAlsoOnServers` deletes those too where it can) when the undo window ends; until then they are hidden here and in other tabs.
	 */
	deleteSelected(): void {
		// Counted before deleting: the selection shrinks as the runs are hidden.
		const chosen = [...this.selection];
		const finished = chosen.filter((e) => !isOpen(e));
		const kept = chosen.length - finished.length;
		// A sweep's entry stands for all of its runs.
		const ids = finished.flatMap((e) => e.cellIds ?? [e.id]);
		if (ids.length > 0) pendingDeletes.delete(ids);
		this.notice = `Deleted ${ids.length} run${ids.length === 1 ? '' : 's'} from history${kept ? `; ${kept} still running ${kept === 1 ? 'was' : 'were'} kept` : ''}. This device's record only: the servers keep theirs.`;
		this.selected.clear();
	}

	/** Whether each profile's server keeps a history Runboard can delete (ComfyUI's), asked once per profile. */
	readonly serverHistory = new SvelteMap<string, boolean>();

	/** The selected finished workflow runs whose server keeps a history it can delete, by profile: their job ids. */
	serverDeletable = $derived.by(() => {
		const byProfile = new Map<string, string[]>();
		for (const entry of this.selection) {
			if (isOpen(entry) || entry.kind !== 'workflow' || this.serverHistory.get(entry.profileId) !== true) continue;
			for (const id of entry.cellIds ?? [entry.id]) {
				const promptId = (this.entries.get(id) ?? entry).promptId;
				if (promptId) byProfile.set(entry.profileId, [...(byProfile.get(entry.profileId) ?? []), promptId]);
			}
		}
		return byProfile;
	});

	/** Asks the worker, once per profile, whether the selected runs' servers keep a history it can delete. */
	async learnServerHistory(): Promise<void> {
		const asked = new Set(this.selection.filter((e) => e.kind === 'workflow').map((e) => e.profileId));
		for (const profileId of asked) {
			if (this.serverHistory.has(profileId)) continue;
			this.serverHistory.set(profileId, false);
			this.serverHistory.set(profileId, await workerApi().deletesServerHistory({ profileId }));
		}
	}

	/**
	 * Deletes the selected finished runs from this device (with undo, as `deleteSelected`) and, at once, from
	 * the own history of each server that keeps one (ComfyUI's); that part cannot be undone. Says what each
	 * server confirmed, read back.
	 */
	async deleteSelectedAlsoOnServers(profileName: (id: string) => string | undefined = () => undefined): Promise<void> {
		const onServers = new Map(this.serverDeletable);
		this.deleteSelected();
		const local = this.notice;
		const said: string[] = [];
		for (const [profileId, promptIds] of onServers) {
			const name = profileName(profileId) ?? 'A server';
			const result = await workerApi().deleteServerHistory({ profileId, promptIds });
			if (!result.ok) said.push(`${name} could not be asked: ${result.error.message}`);
			else
				said.push(
					`${name} deleted ${result.value.deleted.length} of ${promptIds.length} from its own history${result.value.kept.length ? ` (it still lists ${result.value.kept.length})` : ''}`
				);
		}
		this.notice = `${local} ${said.join('; ')}. Undo brings back this device's record only: a server's delete cannot be undone.`;
	}

	/** The run page's delete: one finished run, with the same undo window, offered on the Runs page it goes to. */
	deleteOne(id: string, title: string): void {
		this.connect();
		pendingDeletes.delete([id]);
		this.selected.delete(id);
		this.notice = `Deleted “${title}” from history.`;
	}

	/** The sweep page's delete: every run of a sweep (its record and thumbnails go with the last), with the same undo window. */
	deleteSweep(runIds: string[], title: string): void {
		this.connect();
		pendingDeletes.delete(runIds);
		for (const id of runIds) this.selected.delete(id);
		this.notice = `Deleted the sweep “${title}”: ${runIds.length} run${runIds.length === 1 ? '' : 's'} from history. This device's record only: the servers keep theirs.`;
	}

	/** Starts each selected run again with the same inputs (a model request gets a new key: a new call). */
	async rerunSelected(): Promise<void> {
		this.notice = await (await bulkActions()).rerunEntries([...this.selection]);
		this.selected.clear();
	}
}

export const timeline = new TimelineStore();
