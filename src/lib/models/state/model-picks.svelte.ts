/**
 * Pinned and recently opened models, shown above the catalog. A display preference like the theme,
 * so it lives in localStorage (model ids only; nothing secret), read once per page load.
 */
const PINNED_KEY = 'runboard.models.pinned';
const RECENT_KEY = 'runboard.models.recent';
const RECENT_MAX = 6;
const ID_MAX = 193;

function readIds(key: string): string[] {
	try {
		const parsed: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
		return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string' && v.length <= ID_MAX).slice(0, 100) : [];
	} catch (error) {
		// Storage disabled or a value written by hand: start empty (picks are a convenience, not data).
		console.info('Runboard: pinned and recent models could not be read', error);
		return [];
	}
}

function writeIds(key: string, ids: string[]): void {
	try {
		localStorage.setItem(key, JSON.stringify(ids));
	} catch (error) {
		console.info('Runboard: pinned and recent models last for this visit only', error);
	}
}

export class ModelPicks {
	pinned = $state<string[]>(typeof localStorage === 'undefined' ? [] : readIds(PINNED_KEY));
	recent = $state<string[]>(typeof localStorage === 'undefined' ? [] : readIds(RECENT_KEY));

	isPinned(id: string): boolean {
		return this.pinned.includes(id);
	}

	togglePin(id: string): void {
		this.pinned = this.isPinned(id) ? this.pinned.filter((p) => p !== id) : [...this.pinned, id];
		writeIds(PINNED_KEY, this.pinned);
	}

	/** A model opened: first among the recent ones. */
	used(id: string): void {
		this.recent = [id, ...this.recent.filter((r) => r !== id)].slice(0, RECENT_MAX);
		writeIds(RECENT_KEY, this.recent);
	}
}

export const modelPicks = new ModelPicks();
