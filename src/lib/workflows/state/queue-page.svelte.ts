/**
 * The Queue page: the active profile's jobs running and waiting on the service, a selection (Shift
 * picks a range, and all can be picked at once), cancel and interrupt. A Cancel of the selection, and
 * the Cancel of one waiting job, go to the server's batch cancel where it has one, else job by job;
 * each job's line says what the server confirmed.
 */
import { describeError, type AppError } from '$lib/core/protocol/errors';
import { profiles } from '$lib/core/state/profiles.svelte';
import { workerApi } from '$lib/core/state/worker-bridge.svelte';
import type { JobCancelResult, QueueEntry, QueueView } from '$lib/workflows/protocol/api';
import { cancelManyWords, jobCancelWords } from '$lib/workflows/rules/cancel-many-words';
import { toggleInList } from '$lib/core/rules/range-select';
import { describeStop, settleStop, type StopOutcome } from '$lib/workflows/rules/stop-outcome';
import { differingValues, type Difference } from '$lib/workflows/rules/queue-differences';
import { runFraction } from '$lib/workflows/rules/run-record';
import { WorkflowRunsStore, type Preview } from './workflow-runs.svelte';

export class QueuePageStore {
	queue = $state<QueueView | null>(null);
	problem = $state<AppError | null>(null);
	selected = $state<string[]>([]);
	/** Each job of the last Cancel of the selection, with what its server confirmed. */
	results = $state<Array<{ promptId: string; title: string; words: string }>>([]);
	busy = $state(false);
	/** The entry picked last: Shift with a click picks from it to the one clicked. */
	private anchor: string | null = null;
	/** What the last action did, in words; a Cancel of a running job says it as the job then ended (see `stopped`). */
	notice = $derived.by(() => {
		if (!this.stopped) return this.said;
		const run = this.stopped.runId ? this.runs.runs.get(this.stopped.runId) : undefined;
		return describeStop(run ? settleStop(this.stopped.outcome, run.status) : this.stopped.outcome);
	});
	private said = $state('');
	/**
	 * The last Cancel of a running job: what the server did, and this device's run of it. An interrupt still
	 * under way ("stops when its current node ends") is settled by how the run ended, as on the run page:
	 * it once went on saying so after the real ComfyUI had stopped the job.
	 */
	private stopped = $state<{ outcome: StopOutcome; runId: string | null } | null>(null);
	/** The runs this device started: their progress, latest preview and the values that tell them apart. */
	readonly runs = new WorkflowRunsStore();
	private readonly asked = new Set<string>();
	private readonly entries = $derived(this.queue ? [...this.queue.running, ...this.queue.pending] : []);
	private readonly differences = $derived(
		differingValues(this.entries.map((e) => (e.runId ? (this.runs.runs.get(e.runId)?.prompt ?? null) : null)))
	);

	/** The values that differ from the other entries' (the seed, most often). */
	differencesOf(entry: QueueEntry): Difference[] {
		return this.differences[this.entries.indexOf(entry)] ?? [];
	}

	/** How far a running entry is, when this device started it (null otherwise). */
	progressOf(entry: QueueEntry): number | null {
		const run = entry.runId ? this.runs.runs.get(entry.runId) : undefined;
		return run && run.status === 'running' ? runFraction(run) : null;
	}

	previewOf(entry: QueueEntry): Preview | undefined {
		return entry.runId ? this.runs.previews.get(entry.runId) : undefined;
	}

	dispose(): void {
		this.runs.dispose();
	}

	/** Reads the records of entries this device started (once each). */
	private readRuns(view: QueueView): void {
		for (const entry of [...view.running, ...view.pending]) {
			if (!entry.runId || this.asked.has(entry.runId)) continue;
			this.asked.add(entry.runId);
			void this.runs.ensure(entry.runId);
		}
	}

	async refresh(): Promise<void> {
		const profileId = profiles.activeId;
		if (!profileId) return;
		const result = await workerApi().queue({ profileId });
		if (result.ok) {
			this.queue = result.value;
			this.problem = null;
			this.readRuns(result.value);
			const present = new Set([...result.value.running, ...result.value.pending].map((e) => e.promptId));
			this.selected = this.selected.filter((id) => present.has(id));
		} else {
			this.problem = result.error;
		}
	}

	/** Every entry, running first then waiting, as the page lists them. */
	get order(): string[] {
		return this.entries.map((e) => e.promptId);
	}

	get allSelected(): boolean {
		return this.entries.length > 0 && this.selected.length === this.entries.length;
	}

	selectAll(on: boolean): void {
		this.selected = on ? this.order : [];
	}

	/** Cancels the selected jobs, running and waiting (see `cancelJobs`). */
	cancelSelected(): Promise<void> {
		return this.cancelJobs([...this.selected]);
	}

	/** A waiting job's own Cancel: as a Cancel of a selection of that one job, so by the same route and with the same words. */
	cancelWaiting(entry: QueueEntry): Promise<void> {
		return this.cancelJobs([entry.promptId]);
	}

	/**
	 * Cancels jobs, running and waiting: the server's batch cancel where it has one, else one by one (a
	 * waiting job by the queue delete, a running one as the run page's Cancel does); says what it confirmed.
	 */
	private async cancelJobs(ids: string[]): Promise<void> {
		const profileId = profiles.activeId;
		if (!profileId || ids.length === 0 || this.busy) return;
		const titles = new Map(this.entries.map((e) => [e.promptId, e.title]));
		this.busy = true;
		this.results = [];
		this.say(`Cancelling ${ids.length}…`);
		try {
			const report = await workerApi().cancelJobs({ profileId, promptIds: ids });
			if (!report.ok) {
				this.say(describeError(report.error));
				return;
			}
			this.say(cancelManyWords(report.value, profiles.active?.name ?? 'The server'));
			this.results = report.value.jobs.map((job: JobCancelResult) => ({
				promptId: job.promptId,
				title: titles.get(job.promptId) ?? job.promptId,
				words: jobCancelWords(job)
			}));
			for (const job of report.value.jobs) {
				const runId = this.entries.find((e) => e.promptId === job.promptId)?.runId;
				if (runId) void this.runs.ensure(runId);
			}
			const cancelled = new Set(ids);
			this.selected = this.selected.filter((id) => !cancelled.has(id));
		} finally {
			this.busy = false;
			await this.refresh();
		}
	}

	/** A running job: what the run page's Cancel run does (the job cancel where the server has it, else an interrupt), and what the server did. */
	async stop(entry: QueueEntry): Promise<void> {
		if (!profiles.activeId) return;
		this.say('Cancelling…');
		const result = await workerApi().stopJob({ profileId: profiles.activeId, promptId: entry.promptId });
		if (result.ok) {
			if (entry.runId) void this.runs.ensure(entry.runId);
			this.stopped = { outcome: result.value, runId: entry.runId ?? null };
		} else this.say(describeError(result.error));
		await this.refresh();
	}

	async interrupt(entry: QueueEntry): Promise<void> {
		if (!profiles.activeId) return;
		const result = await workerApi().interrupt({ profileId: profiles.activeId, promptId: entry.promptId });
		this.say(result.ok ? 'Interrupt sent: the job stops after its current node.' : describeError(result.error));
		await this.refresh();
	}

	private say(words: string): void {
		this.stopped = null;
		this.said = words;
	}

	/** Picks or unpicks one entry; with `range` (Shift), every entry from the one picked last to this one alike. */
	toggle(id: string, range = false): void {
		const next = toggleInList(this.selected, this.order, this.anchor, id, range);
		this.selected = next.selected;
		this.anchor = next.anchor;
	}
}
