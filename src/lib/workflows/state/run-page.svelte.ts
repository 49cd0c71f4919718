/**
 * One run's page: the run and its live preview, and while it waits, its place in the service's queue
 * (read every few seconds) and how long it may still take. Made by the page, disposed when it goes.
 */
import { finishedBeforeCancel, isExpired, TERMINAL, type WorkflowRun } from '$lib/workflows/rules/run-record';
import { describeStop, settleStop, type StopOutcome } from '$lib/workflows/rules/stop-outcome';
import { nodeTitle } from '$lib/workflows/rules/workflow-import';
import { describeError } from '$lib/core/protocol/errors';
import { workflowInputsUsed } from '$lib/workbench/rules/inputs-used';
import { SvelteMap } from 'svelte/reactivity';
import { loadedImages } from '$lib/workbench/rules/edit-input';
import { canvasLayout, readingOrder } from '$lib/workflows/rules/converter/canvas-layout';
import { estimateRemaining, formatDuration, queuePosition, recentWorkflowDurations } from '$lib/core/rules/eta';
import { workerApi } from '$lib/core/state/worker-bridge.svelte';
import { WorkflowRunsStore } from './workflow-runs.svelte';
import { runEntries } from '$lib/core/state/run-entries.svelte';
import { network } from '../../core/state/network.svelte';
import { profiles } from '$lib/core/state/profiles.svelte';

/** How often the queue is read while the run waits. */
export const QUEUE_POLL_MS = 3000;

export class RunPageStore {
	readonly runs = new WorkflowRunsStore();
	id = $state('');
	/** Jobs ahead of this one, read from the service's queue while the run waits. */
	position = $state<number | null>(null);

	run = $derived<WorkflowRun | undefined>(this.runs.runs.get(this.id));
	preview = $derived(this.runs.previews.get(this.id) ?? null);
	/** Milliseconds until the run is likely done, from the durations of recent runs of its workflow. */
	eta = $derived.by(() => {
		const run = this.run;
		if (!run || run.status !== 'queued' || this.position === null) return undefined;
		// Recent durations come from the timeline index, not from reading every full run.
		return estimateRemaining({ position: this.position, recentDurations: recentWorkflowDurations(runEntries.entries.values(), run) });
	});
	/** The wait in words ("2 min 5 s"), or undefined when nothing is known. */
	etaWords = $derived(this.eta === undefined ? undefined : formatDuration(this.eta));
	expired = $derived(this.run !== undefined && isExpired(this.run));
	finished = $derived(this.run !== undefined && TERMINAL.has(this.run.status));
	/** Its cancel was asked for, but it ended otherwise first. */
	finishedBeforeCancel = $derived(this.run !== undefined && finishedBeforeCancel(this.run));

	/** What the last Cancel did, as the server's queue and history showed afterwards (cleared when another run opens). */
	stopOutcome = $state<StopOutcome | null>(null);
	stopping = $state(false);
	/** That outcome in words, settled by how the run ended. */
	stopped = $derived(this.stopOutcome && this.run ? describeStop(settleStop(this.stopOutcome, this.run.status)) : null);
	/** What the proxy says while the server behind it does not answer, for this run's profile (else null). */
	upstreamDown = $derived(
		profiles.socket.status === 'upstream-down' && profiles.activeId === this.run?.profileId ? profiles.socket.message : null
	);
	/** This run's server answers nothing (its socket waits on the server, not only on itself): the run's state is not known meanwhile. */
	serverSilent = $derived(profiles.socket.status === 'waiting' && profiles.socket.unanswered && profiles.activeId === this.run?.profileId);
	/** The proxy accepted the cancel but does not stop jobs: the ComfyUI behind it, where an interrupt does. */
	behind = $derived(this.stopOutcome?.kind === 'not-stopped' ? this.stopOutcome.behind : null);

	/** The canvas reading order of a UI-format workflow's nodes, for Inputs used (empty: node id order). */
	nodeOrder = $state.raw<string[]>([]);
	/** Pictures of the run's LoadImage inputs the server still has, by `node id.image` (names only while offline). */
	readonly inputPictures = new SvelteMap<string, string>();

	private timer: ReturnType<typeof setInterval> | undefined;
	private stopEffects: (() => void) | undefined;

	/** The inputs the run was sent with, in the saved workflow's reading order, with the pictures still on the server. */
	inputsUsed = $derived(workflowInputsUsed(this.run?.prompt ?? {}, this.inputPictures, this.nodeOrder));

	/** A node of this run's workflow by its title (its type, else its id). */
	nodeTitle(nodeId: string): string {
		return this.run ? nodeTitle(this.run.prompt, nodeId) : nodeId;
	}

	/** Cancels the run; answers what went wrong in words, or null. */
	async cancel(): Promise<string | null> {
		const run = this.run;
		if (!run) return null;
		this.stopping = true;
		this.stopOutcome = null;
		const result = await this.runs.stop(run);
		this.stopping = false;
		this.stopOutcome = result.ok ? result.value : null;
		return result.ok ? null : describeError(result.error);
	}

	/** Interrupts the job on the ComfyUI behind the run's proxy; answers what went wrong in words, or null. */
	async interruptBehind(): Promise<string | null> {
		const run = this.run;
		if (!run) return null;
		this.stopping = true;
		const result = await this.runs.interruptBehind(run);
		this.stopping = false;
		if (result.ok) this.stopOutcome = result.value;
		return result.ok ? null : describeError(result.error);
	}

	/** Shows run `id`: reads it, follows its events, and reads its queue position while it waits. */
	open(id: string): void {
		this.stopOutcome = null;
		if (this.id !== id) this.position = null;
		this.id = id;
		void this.runs.ensure(id);
		void runEntries.load();
		this.timer ??= setInterval(() => void this.readPosition(), QUEUE_POLL_MS);
		// Read the position as soon as the run is known to wait, not only on the timer.
		this.stopEffects ??= $effect.root(() => {
			let askedFor: string | null = null;
			$effect(() => {
				const run = this.run;
				if (run?.status === 'queued' && askedFor !== run.id) {
					askedFor = run.id;
					void this.readPosition();
				}
			});
			let orderOf: string | null = null;
			$effect(() => {
				const run = this.run;
				if (!run || orderOf === run.id) return;
				orderOf = run.id;
				this.nodeOrder = [];
				if (!run.workflowId) return;
				void workerApi()
					.getWorkflow({ id: run.workflowId })
					.then(
						(saved) => {
							if (saved?.ui && this.run?.id === run.id) this.nodeOrder = readingOrder(canvasLayout(saved.ui), Object.keys(run.prompt));
						},
						// The order is a nicety: without the saved workflow, Inputs used keeps node id order.
						() => undefined
					);
			});
			let picturesOf: string | null = null;
			$effect(() => {
				const run = this.run;
				if (!run || picturesOf === run.id || !network.online) return;
				picturesOf = run.id;
				this.inputPictures.clear();
				for (const { nodeId, name } of loadedImages(run.prompt))
					void this.runs.inputImageUrl(run.profileId, name).then((url) => {
						if (url.ok && this.run?.id === run.id) this.inputPictures.set(`${nodeId}.image`, url.value);
					});
			});
		});
	}

	async readPosition(): Promise<void> {
		const run = this.run;
		if (!run || run.status !== 'queued' || !network.online || !run.promptId) return;
		const queue = await workerApi().queue({ profileId: run.profileId });
		if (!queue.ok || this.run?.id !== run.id) return;
		this.position = queuePosition(queue.value, run.promptId);
	}

	/** Stops the polling and the events, and revokes the page's object URLs. */
	dispose(): void {
		clearInterval(this.timer);
		this.timer = undefined;
		this.stopEffects?.();
		this.stopEffects = undefined;
		this.runs.dispose();
	}
}
