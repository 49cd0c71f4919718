/**
 * The service worker's lifecycle as the page shows it: "ready to work offline" once the app shell
 * is cached, "update available, reload" when a new version waits.
 */
import type { Workbox } from 'workbox-window';
import { flushDrafts } from './draft-flush';

export class PwaStore {
	offlineReady = $state(false);
	updateWaiting = $state(false);
	controlled = $state(false);
	unsupported = $state(false);
	private workbox: Workbox | undefined;

	async register(): Promise<void> {
		if (!('serviceWorker' in navigator)) {
			this.unsupported = true;
			return;
		}
		this.controlled = navigator.serviceWorker.controller !== null;
		// Loaded here, after the first paint, rather than with the layout: the first view does not need it.
		const { Workbox } = await import('workbox-window');
		const wb = new Workbox('/sw.js', { scope: '/' });
		this.workbox = wb;
		wb.addEventListener('installed', (event) => {
			if (!event.isUpdate) this.showOfflineReady();
		});
		wb.addEventListener('waiting', () => {
			this.updateWaiting = true;
		});
		wb.addEventListener('controlling', () => {
			this.controlled = true;
		});
		try {
			const registration = await wb.register();
			if (registration?.active && !registration.waiting && !this.controlled) this.showOfflineReady();
		} catch {
			this.unsupported = true;
		}
	}

	/** Saves every form draft, activates the waiting version, then reloads once it controls the page. */
	async applyUpdate(): Promise<void> {
		const wb = this.workbox;
		if (!wb) return;
		await flushDrafts();
		wb.addEventListener('controlling', () => window.location.reload());
		wb.messageSkipWaiting();
	}

	/** Asks the browser whether a new version is waiting (it also checks on its own). */
	async checkForUpdate(): Promise<void> {
		await this.workbox?.update();
	}

	dismissOfflineReady(): void {
		this.offlineReady = false;
	}

	/** A notice, not a state: it goes away by itself after a while. */
	private showOfflineReady(): void {
		this.offlineReady = true;
		setTimeout(() => this.dismissOfflineReady(), 12_000);
	}
}

export const pwa = new PwaStore();
