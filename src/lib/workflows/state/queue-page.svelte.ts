/** The Queue page: the active profile's jobs running and waiting on the service, a selection, cancel and interrupt. */
import { describeError, type AppError } from '$lib/core/protocol/errors';
import { profiles } from '$lib/core/state/profiles.svelte';
import { workerApi } from '$lib/core/state/worker-bridge.svelte';
import type { QueueEntry, QueueView } from '$lib/workflows/protocol/api';
import { cancelWords, describeStop } from '$lib/workflows/rules/stop-outcome';

export class QueuePageStore {
	queue = $state<QueueView | null>(null);
	problem = $state<AppError | null>(null);
	selected = $state<string[]>([]);
	notice = $state('');

	async refresh(): Promise<void> {
		const profileId = profiles.activeId;
		if (!profileId) return;
		const result = await workerApi().queue({ profileId });
		if (result.ok) {
			this.queue = result.value;
			this.problem = null;
			const present = new Set([...result.value.running, ...result.value.pending].map((e) => e.promptId));
			this.selected = this.selected.filter((id) => present.has(id));
		} else {
			this.problem = result.error;
		}
	}

	/** Waiting jobs: a queue delete, read back from the queue. */
	async cancel(ids: string[]): Promise<void> {
		if (!profiles.activeId || ids.length === 0) return;
		const result = await workerApi().cancelRuns({ profileId: profiles.activeId, promptIds: ids });
		this.notice = result.ok ? cancelWords(result.value) : describeError(result.error);
		this.selected = [];
		await this.refresh();
	}

	/** A running job: what the run page's Cancel run does (the job cancel where the server has it, else an interrupt), and what the server did. */
	async stop(entry: QueueEntry): Promise<void> {
		if (!profiles.activeId) return;
		this.notice = 'Cancelling…';
		const result = await workerApi().stopJob({ profileId: profiles.activeId, promptId: entry.promptId });
		this.notice = result.ok ? describeStop(result.value) : describeError(result.error);
		await this.refresh();
	}

	async interrupt(entry: QueueEntry): Promise<void> {
		if (!profiles.activeId) return;
		const result = await workerApi().interrupt({ profileId: profiles.activeId, promptId: entry.promptId });
		this.notice = result.ok ? 'Interrupt sent: the job stops after its current node.' : describeError(result.error);
		await this.refresh();
	}

	toggle(id: string): void {
		this.selected = this.selected.includes(id) ? this.selected.filter((s) => s !== id) : [...this.selected, id];
	}
}
