/** The model catalog of the active profile, as the worker walks it, with the search and filters of the page. */
import type { AppError } from '$lib/core/protocol/errors';
import {
	applyPageUpdate,
	catalogUnavailable,
	filterModels,
	groupByProvider,
	keepIdentities,
	pinnedAndRecent,
	type CatalogView
} from '$lib/models/rules/model-catalog';
import { KIND_LABELS, MODEL_KINDS, type ModelKind, type ModelSummary } from '$lib/models/rules/model-summary';
import type { PrefetchProgress } from '$lib/models/protocol/api';
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import { modelPicks } from './model-picks.svelte';
import { onWorkerEvent, workerApi } from '$lib/core/state/worker-bridge.svelte';
import { perFrame } from '$lib/core/state/per-frame';
import type { WorkerEvent } from '$lib/core/protocol/worker-api';
import { routerHealth, type RouterHealth } from '$lib/core/rules/router-health';
import { routerHealthBoard, type RouterHealthBoard } from '../../core/state/router-health.svelte';

type CatalogPageEvent = Extract<WorkerEvent, { type: 'model-catalog-page' }>;

export class CatalogStore {
	// Raw: a view is replaced whole, never edited in place, and its entries keep their identity from
	// one view to the next, so the keyed list renders only the entries that arrived.
	private currentView = $state.raw<CatalogView | null>(null);
	private currentError = $state<AppError | null>(null);
	query = $state('');
	provider = $state<string | null>(null);
	notChargedOnRefusal = $state(false);
	/** Kind and provider chips: none chosen shows all. */
	readonly kinds = new SvelteSet<ModelKind>();
	readonly providerChips = new SvelteSet<string>();
	/**
	 * What each model's schema says (kind, title, first sentence, needs), as the background prefetch
	 * brings it. Every listed id has an entry (undefined until its summary arrives): a reactive map
	 * tracks a read per key only for keys it holds, so a summary arriving updates its own tile alone.
	 */
	readonly summaries = new SvelteMap<string, ModelSummary | undefined>();
	prefetch = $state.raw<PrefetchProgress | null>(null);
	private currentProfileId: string | null = null;
	private unsubscribe: (() => void) | undefined;
	private resyncing = false;
	/** The profile whose catalog is being asked for right now. */
	private asking: string | null = null;
	private readonly pages = perFrame<CatalogPageEvent>((events) => this.applyPages(events));

	private readonly health: RouterHealthBoard;

	constructor(health: RouterHealthBoard = routerHealthBoard) {
		this.health = health;
	}

	/** The kinds a person can filter by, in order, with their names. */
	readonly kindChoices = MODEL_KINDS.map((kind) => ({ kind, label: KIND_LABELS[kind] }));

	/** The service answered that the catalog is unavailable (the list appears once it answers). */
	get unavailable(): boolean {
		return this.currentView !== null && catalogUnavailable(this.currentView);
	}

	// The view, its error and its profile are told to the health board as they change, so the badge
	// follows the router without importing this store.
	get view(): CatalogView | null {
		return this.currentView;
	}
	set view(view: CatalogView | null) {
		this.currentView = view;
		this.reportHealth();
	}
	get error(): AppError | null {
		return this.currentError;
	}
	set error(error: AppError | null) {
		this.currentError = error;
		this.reportHealth();
	}
	private get profileId(): string | null {
		return this.currentProfileId;
	}
	private set profileId(profileId: string | null) {
		this.currentProfileId = profileId;
		this.reportHealth();
	}

	models = $derived(this.view?.models ?? []);
	providers = $derived([...new Set(this.models.map((m) => m.provider))]);
	shown = $derived(
		filterModels(this.models, {
			query: this.query,
			provider: this.provider,
			providers: this.providerChips,
			kinds: this.kinds,
			notChargedOnRefusal: this.notChargedOnRefusal,
			summaries: this.summaries
		})
	);
	groups = $derived(groupByProvider(this.shown));
	/** Pinned, then recently used models among those shown, above the groups. */
	top = $derived(pinnedAndRecent(this.shown, modelPicks.pinned, modelPicks.recent));

	async open(profileId: string, refresh = false): Promise<void> {
		this.unsubscribe ??= onWorkerEvent((event) => {
			if (event.type === 'model-catalog' && event.view.profileId === this.profileId) this.show(event.view);
			else if (event.type === 'model-catalog-page' && event.profileId === this.profileId) this.pages.push(event);
			else if (event.type === 'model-summaries' && event.profileId === this.profileId) {
				for (const s of event.summaries) this.summaries.set(s.modelId, s);
				this.prefetch = event.progress;
			}
		});
		if (this.profileId !== profileId) {
			this.view = null;
			this.pages.drop();
			this.summaries.clear();
			this.prefetch = null;
		}
		// Opened again (the press, the route's load, the page itself) while its walk runs: the walk's
		// events bring everything, there is nothing to ask.
		const walk = this.profileId === profileId ? this.view?.walk.kind : undefined;
		if (!refresh && (this.asking === profileId || walk === 'walking' || walk === 'retrying')) return;
		this.profileId = profileId;
		performance.mark('runboard:catalog-open');
		this.asking = profileId;
		const result = await workerApi()
			.modelCatalog({ profileId, refresh })
			.finally(() => (this.asking = null));
		if (this.profileId !== profileId) return;
		if (result.ok) {
			this.error = null;
			// An event may already have brought a newer state than this answer.
			if (!this.view || this.view.walk.kind === 'idle') this.show(result.value);
			void this.loadSummaries(profileId);
		} else this.error = result.error;
	}

	/** The router's health as this profile's catalog walk saw it; unknown for a profile not walked here. */
	healthOf(profileId: string | null): RouterHealth {
		return this.health.of(profileId);
	}

	private reportHealth(): void {
		this.health.report(this.currentProfileId, routerHealth(this.currentView, this.currentError));
	}

	/** Saved summaries at once; the worker fetches missing ones in the background (events follow). */
	private async loadSummaries(profileId: string): Promise<void> {
		const known = await workerApi().modelSummaries({ profileId });
		if (this.profileId !== profileId) return;
		for (const s of known.summaries) if (!this.summaries.get(s.modelId)) this.summaries.set(s.modelId, s);
		this.prefetch ??= known.progress;
	}

	/** Stops following the walk's events (the app's catalog lives as long as the app; tests end theirs). */
	dispose(): void {
		this.unsubscribe?.();
		this.unsubscribe = undefined;
		this.pages.drop();
	}

	refresh(): Promise<void> {
		return this.profileId ? this.open(this.profileId, true) : Promise.resolve();
	}

	private show(view: CatalogView): void {
		this.pages.drop();
		this.view = { ...view, models: keepIdentities(this.view?.models ?? [], view.models) };
		this.holdPlaces(view.models);
	}

	private holdPlaces(models: CatalogView['models']): void {
		for (const m of models) if (!this.summaries.has(m.id)) this.summaries.set(m.id, undefined);
	}

	private applyPages(events: CatalogPageEvent[]): void {
		let view = this.view;
		for (const event of events) {
			if (!view || event.profileId !== view.profileId) continue;
			const next = applyPageUpdate(view, event);
			if (next === 'resync') void this.resync();
			else view = next;
		}
		this.view = view;
		if (view) this.holdPlaces(view.models);
	}

	private async resync(): Promise<void> {
		const profileId = this.profileId;
		if (this.resyncing || !profileId) return;
		this.resyncing = true;
		try {
			const result = await workerApi().modelCatalog({ profileId });
			if (result.ok && this.profileId === profileId) this.show(result.value);
		} finally {
			this.resyncing = false;
		}
	}
}

export const catalog = new CatalogStore();
