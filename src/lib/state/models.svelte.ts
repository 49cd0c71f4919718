/** The model catalog of the active profile, as the worker walks it, with the search and filters of the page. */
import type { AppError } from '$lib/domain/errors';
import { filterModels, groupByProvider, type CatalogView } from '$lib/domain/model-catalog';
import { onWorkerEvent, workerApi } from '$lib/client/worker-bridge.svelte';

export class CatalogStore {
	view = $state<CatalogView | null>(null);
	error = $state<AppError | null>(null);
	query = $state('');
	provider = $state<string | null>(null);
	notChargedOnRefusal = $state(false);
	private profileId: string | null = null;
	private unsubscribe: (() => void) | undefined;

	models = $derived(this.view?.models ?? []);
	providers = $derived([...new Set(this.models.map((m) => m.provider))]);
	shown = $derived(
		filterModels(this.models, { query: this.query, provider: this.provider, notChargedOnRefusal: this.notChargedOnRefusal })
	);
	groups = $derived(groupByProvider(this.shown));

	async open(profileId: string, refresh = false): Promise<void> {
		this.unsubscribe ??= onWorkerEvent((event) => {
			if (event.type === 'model-catalog' && event.view.profileId === this.profileId) this.view = event.view;
		});
		if (this.profileId !== profileId) this.view = null;
		this.profileId = profileId;
		performance.mark('runboard:catalog-open');
		const result = await workerApi().modelCatalog({ profileId, refresh });
		if (this.profileId !== profileId) return;
		if (result.ok) {
			this.error = null;
			// An event may already have brought a newer state than this answer.
			if (!this.view || this.view.walk.kind === 'idle') this.view = result.value;
		} else this.error = result.error;
	}

	refresh(): Promise<void> {
		return this.profileId ? this.open(this.profileId, true) : Promise.resolve();
	}
}

export const catalog = new CatalogStore();
