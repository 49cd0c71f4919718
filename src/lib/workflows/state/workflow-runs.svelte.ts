/**
 * Workflow runs as the page shows them: the records the worker keeps, with their pictures
 * (`RunPictures`) and the actions on them. Each page makes its own and disposes of it when it goes.
 */
import type { StopOutcome } from '$lib/workflows/rules/stop-outcome';
import { SvelteMap } from 'svelte/reactivity';
import type { WorkflowRun } from '$lib/workflows/rules/run-record';
import type { Result } from '$lib/core/protocol/errors';
import type { WorkerEvent } from '$lib/core/protocol/worker-api';
import { workerApi } from '$lib/core/state/worker-bridge.svelte';
import { RunPictures } from './run-pictures.svelte';

export type { Preview } from './run-pictures.svelte';

export class WorkflowRunsStore extends RunPictures {
	readonly runs = new SvelteMap<string, WorkflowRun>();
	loaded = $state(false);

	protected override heard(event: WorkerEvent): void {
		if (event.type === 'run') this.runs.set(event.run.id, event.run);
		else if (event.type === 'run-deleted') this.runs.delete(event.id);
		else super.heard(event);
	}

	/** Reads one run, for its page. */
	async ensure(id: string): Promise<void> {
		this.listen();
		const run = await workerApi().getRun({ id });
		if (run && !this.runs.has(id)) this.runs.set(id, run);
		this.loaded = true;
	}

	/** Cancels the run's job by the best route its server has; the answer says what the server did. */
	stop(run: WorkflowRun): Promise<Result<StopOutcome>> {
		return workerApi().stopRun({ runId: run.id });
	}

	/** Interrupts the run's job on the ComfyUI behind its self-hosted proxy (whose own cancel does not stop jobs). */
	interruptBehind(run: WorkflowRun): Promise<Result<StopOutcome>> {
		return workerApi().stopRun({ runId: run.id, behind: true });
	}

	interrupt(run: WorkflowRun): Promise<Result<void>> {
		return workerApi().interrupt({ profileId: run.profileId, ...(run.promptId ? { promptId: run.promptId } : {}) });
	}
}

/** The words for what a cancel did (pages say them; the rules live in `stop-outcome`). */
export { describeStop } from '$lib/workflows/rules/stop-outcome';
