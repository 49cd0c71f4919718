/**
 * Light, dark, or follow the system. The choice is a display preference, not data, so it lives in
 * localStorage (read before first paint by app.html to avoid a flash).
 */
export type ThemeChoice = 'system' | 'light' | 'dark';
const STORAGE_KEY = 'runboard.theme';

function readChoice(): ThemeChoice {
	try {
		const v = localStorage.getItem(STORAGE_KEY);
		return v === 'light' || v === 'dark' ? v : 'system';
	} catch {
		return 'system';
	}
}

export class ThemeStore {
	choice = $state<ThemeChoice>(readChoice());

	set(choice: ThemeChoice): void {
		this.choice = choice;
		try {
			if (choice === 'system') localStorage.removeItem(STORAGE_KEY);
			else localStorage.setItem(STORAGE_KEY, choice);
		} catch {
			/* storage disabled: the choice lasts for this visit */
		}
		apply(choice);
	}

	forget(): void {
		this.set('system');
	}
}

function apply(choice: ThemeChoice): void {
	const root = document.documentElement;
	if (choice === 'system') delete root.dataset['theme'];
	else root.dataset['theme'] = choice;
}

export const theme = new ThemeStore();
