/** The settings page's history file: export (a download) and import, with a line saying what happened. */
import { workerApi } from '$lib/core/state/worker-bridge.svelte';

export class HistoryFileStore {
	message = $state('');

	async export(withBytes: boolean): Promise<void> {
		const blob = await workerApi().exportHistory({ withBytes });
		const url = URL.createObjectURL(blob);
		const a = document.createElement('a');
		a.href = url;
		a.download = `runboard-history-${new Date().toISOString().slice(0, 10)}.json`;
		a.click();
		setTimeout(() => URL.revokeObjectURL(url), 1000);
		this.message = `Exported (${Math.max(1, Math.round(blob.size / 1024))} KB).`;
	}

	async import(file: File): Promise<void> {
		const result = await workerApi().importHistory({ file });
		this.message = result.ok
			? `Imported ${result.runs} run${result.runs === 1 ? '' : 's'} and ${result.bytes} cached output${result.bytes === 1 ? '' : 's'}${result.skipped ? `; ${result.skipped} already here were kept` : ''}.`
			: result.message;
	}
}
