/**
 * Runs on navigation and on hover preloading (`data-sveltekit-preload-data="hover"`): the worker
 * starts the catalog walk while the page is still on its way, so the first models arrive sooner.
 * A press on Models in the navigation starts it earlier still (see the root layout).
 */
import { catalog } from '$lib/models/state/models.svelte';
import { profiles } from '$lib/core/state/profiles.svelte';

export function load(): Record<string, never> {
	if (profiles.activeId && profiles.active?.routerUrl) void catalog.open(profiles.activeId);
	return {};
}
