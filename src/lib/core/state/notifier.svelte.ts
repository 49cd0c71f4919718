/**
 * Tells a person when a run finishes while Runboard is in the background: a notification through
 * the service worker (Android Chrome refuses `new Notification()`), an optional chime, and the app
 * badge counting runs in progress. Nothing pushes to a frozen page: runs that ended while the phone
 * was locked are announced when the page wakes and catches up.
 */
import { onWorkerEvent } from '$lib/core/state/worker-bridge.svelte';

const ENABLED = 'runboard.notify';
const SOUND = 'runboard.notify.sound';
/** After waking, catch-up results count as "finished while away" for this long. */
const WAKE_WINDOW_MS = 5000;

interface RunSeen {
	id: string;
	title: string;
	status: string;
	url: string;
	/** A cell of a sweep: counted on the badge, not announced (the sweep's end is, once). */
	quiet?: boolean;
	/** A sweep: announced when it ends, not counted (its cells are). */
	uncounted?: boolean;
}

/** A sweep's state in the words of a run's, for the notification. */
const SWEEP_STATUS: Record<string, string> = { running: 'running', paused: 'running', finished: 'succeeded', cancelled: 'cancelled' };

const FINAL = new Set(['succeeded', 'failed', 'cancelled', 'unknown']);
const WORDS: Record<string, string> = {
	succeeded: 'finished',
	failed: 'failed',
	cancelled: 'was cancelled',
	unknown: 'ended with an unknown outcome'
};

function stored(key: string): boolean {
	try {
		return localStorage.getItem(key) === 'on';
	} catch {
		return false;
	}
}

function store(key: string, on: boolean): void {
	try {
		if (on) localStorage.setItem(key, 'on');
		else localStorage.removeItem(key);
	} catch {
		/* storage disabled: the choice lasts for this visit */
	}
}

export class Notifier {
	enabled = $state(stored(ENABLED));
	sound = $state(stored(SOUND));
	permission = $state<NotificationPermission | 'unsupported'>(
		typeof Notification === 'undefined' ? 'unsupported' : Notification.permission
	);
	problem = $state<string | null>(null);
	/** Runs seen unfinished, by id: only their transition to an end is announced. */
	private readonly open = new Map<string, RunSeen>();
	/** When the page last became visible again (a wake); a fresh load is not a wake. */
	private visibleSince = 0;
	private started = false;

	start(): void {
		if (this.started) return;
		this.started = true;
		document.addEventListener('visibilitychange', () => {
			if (document.visibilityState === 'visible') this.visibleSince = Date.now();
		});
		onWorkerEvent((event) => {
			if (event.type === 'run')
				this.seen({
					id: event.run.id,
					title: event.run.title,
					status: event.run.status,
					url: `/runs/${event.run.id}`,
					...(event.run.sweep ? { quiet: true } : {})
				});
			else if (event.type === 'sweep')
				this.seen({
					id: event.sweep.id,
					title: `The sweep of ${event.sweep.title}`,
					status: SWEEP_STATUS[event.sweep.status] ?? 'running',
					url: `/sweeps/${event.sweep.id}`,
					uncounted: true
				});
			else if (event.type === 'model-run')
				this.seen({ id: event.run.id, title: event.run.title, status: event.run.status, url: `/runs/${event.run.id}` });
		});
	}

	async enable(): Promise<void> {
		this.problem = null;
		if (typeof Notification === 'undefined' || !('serviceWorker' in navigator)) {
			this.problem = 'This browser cannot show notifications.';
			return;
		}
		const permission = await Notification.requestPermission();
		this.permission = permission;
		if (permission !== 'granted') {
			this.problem = 'The browser did not allow notifications for this site. Allow them in the site settings, then try again.';
			return;
		}
		this.enabled = true;
		store(ENABLED, true);
	}

	disable(): void {
		this.enabled = false;
		store(ENABLED, false);
	}

	setSound(on: boolean): void {
		this.sound = on;
		store(SOUND, on);
	}

	private seen(run: RunSeen): void {
		const before = this.open.get(run.id);
		if (!FINAL.has(run.status)) {
			this.open.set(run.id, run);
			this.updateBadge();
			return;
		}
		if (!before) return; // an old run, already over when first seen
		this.open.delete(run.id);
		this.updateBadge();
		const away = document.visibilityState === 'hidden' || Date.now() - this.visibleSince < WAKE_WINDOW_MS;
		if (away && !run.quiet) void this.announce(run);
	}

	private async announce(run: RunSeen): Promise<void> {
		if (this.sound) chime(run.status === 'succeeded');
		if (!this.enabled || this.permission !== 'granted') return;
		try {
			const registration = await navigator.serviceWorker.ready;
			await registration.showNotification(`${run.title} ${WORDS[run.status] ?? 'ended'}`, {
				body: run.url.startsWith('/sweeps/') ? 'Tap to open its grid in Runboard.' : 'Tap to open the run in Runboard.',
				tag: run.id,
				icon: '/icons/icon-192.png',
				badge: '/icons/icon-192.png',
				data: { url: run.url }
			});
		} catch (error) {
			this.problem = `A notification could not be shown: ${error instanceof Error ? error.message : String(error)}`;
		}
	}

	private updateBadge(): void {
		const nav = navigator as Navigator & { setAppBadge?: (n: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
		const count = [...this.open.values()].filter((r) => !r.uncounted).length;
		if (count > 0) void nav.setAppBadge?.(count).catch(() => {});
		else void nav.clearAppBadge?.().catch(() => {});
	}
}

/** A short two-note chime made with WebAudio, so no sound file needs to be cached. */
function chime(success: boolean): void {
	try {
		const audio = new AudioContext();
		const notes = success ? [660, 880] : [440, 330];
		notes.forEach((frequency, i) => {
			const osc = audio.createOscillator();
			const gain = audio.createGain();
			osc.frequency.value = frequency;
			gain.gain.setValueAtTime(0.15, audio.currentTime + i * 0.15);
			gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + i * 0.15 + 0.3);
			osc.connect(gain).connect(audio.destination);
			osc.start(audio.currentTime + i * 0.15);
			osc.stop(audio.currentTime + i * 0.15 + 0.3);
		});
		setTimeout(() => void audio.close(), 1000);
	} catch {
		/* no audio output: the notification still says it */
	}
}

export const notifier = new Notifier();
