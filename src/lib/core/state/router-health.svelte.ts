/**
 * The model router's health as the catalog walk last saw it, kept apart from the catalog so the
 * connection badge (on every page, the first view's included) reads it without loading the catalog's
 * code: the catalog store writes here, the badge reads here.
 */
import type { RouterHealth } from '$lib/core/rules/connection-badge';

const UNKNOWN: RouterHealth = { kind: 'unknown' };

export class RouterHealthBoard {
	private profileId = $state<string | null>(null);
	private health = $state.raw<RouterHealth>(UNKNOWN);

	/** The health seen for this profile; unknown for a profile whose catalog was not walked here. */
	of(profileId: string | null): RouterHealth {
		if (!profileId || this.profileId !== profileId) return UNKNOWN;
		return this.health;
	}

	/** The catalog's profile and what its walk saw (the catalog follows one profile at a time). */
	report(profileId: string | null, health: RouterHealth): void {
		this.profileId = profileId;
		this.health = health;
	}
}

export const routerHealthBoard = new RouterHealthBoard();
