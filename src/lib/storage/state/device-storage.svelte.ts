/** The device storage Runboard uses: how much, whether the browser may evict it, and making room. */
import { onWorkerEvent, workerApi } from '$lib/core/state/worker-bridge.svelte';
import type { StorageStatus } from '$lib/storage/protocol/api';

export class DeviceStorage {
	status = $state<StorageStatus | null>(null);
	persisted = $state<boolean | null>(null);
	full = $state<string | null>(null);
	notice = $state('');
	private started = false;

	start(): void {
		if (this.started) return;
		this.started = true;
		onWorkerEvent((event) => {
			if (event.type === 'storage-full') this.full = event.message;
		});
	}

	async refresh(): Promise<void> {
		this.status = await workerApi().storageStatus({});
		this.persisted = (await navigator.storage?.persisted?.()) ?? null;
	}

	/** Asks the browser not to evict Runboard's data when space runs low. */
	async persist(): Promise<void> {
		const granted = (await navigator.storage?.persist?.()) ?? false;
		this.persisted = granted;
		this.notice = granted
			? 'The browser will keep Runboard’s data when space runs low.'
			: 'The browser declined; it may still evict data when space runs low.';
	}

	/** Frees half of the cached output bytes, oldest runs first. */
	async freeOldestOutputs(): Promise<void> {
		if (!this.status) await this.refresh();
		const bytes = Math.ceil((this.status?.outputs.bytes ?? 0) / 2);
		const { freed, removed } = await workerApi().freeOutputSpace({ bytes });
		this.notice =
			removed === 0
				? 'No cached outputs to remove.'
				: `Removed ${removed} cached output${removed === 1 ? '' : 's'} (${formatBytes(freed)}).`;
		this.full = null;
		await this.refresh();
	}

	/** Frees a sweep as one: its cells' cached outputs (starred ones stay) and, if asked, its thumbnails. */
	async freeSweep(id: string, thumbnails: boolean): Promise<void> {
		const sweep = this.status?.sweeps.find((s) => s.id === id);
		const { freed, removed } = await workerApi().freeSweepSpace({ id, thumbnails });
		const what = [`${removed} cached output${removed === 1 ? '' : 's'}`, ...(thumbnails ? ['its thumbnails'] : [])].join(' and ');
		this.notice = `Freed ${formatBytes(freed)} of the sweep ${sweep ? `“${sweep.title}”` : ''}: ${what}.`;
		this.full = null;
		await this.refresh();
	}
}

/** "12 cached outputs (3.1 MB)": a count and its bytes, in words. */
export function countWords(what: { count: number; bytes: number }, noun: string): string {
	return `${what.count} ${noun}${what.count === 1 ? '' : 's'} (${formatBytes(what.bytes)})`;
}

export function formatBytes(n: number): string {
	if (n < 1024) return `${n} B`;
	const units = ['KB', 'MB', 'GB', 'TB'];
	let v = n / 1024;
	let u = 0;
	while (v >= 1024 && u < units.length - 1) {
		v /= 1024;
		u++;
	}
	return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

export const deviceStorage = new DeviceStorage();
