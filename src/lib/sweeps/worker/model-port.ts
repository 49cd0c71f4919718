/** What a model sweep needs of model runs: the worker's assembly hands in the model feature's own calls. */
import type { Result } from '../../core/protocol/errors';
import type { ModelRun } from '../../core/protocol/model-run';
import type { JsonObject } from '../../core/protocol/json';

export interface SweepModelPort {
	/** Saves the run under the cell's run id and key, then sends it. */
	start(input: {
		profileId: string;
		modelId: string;
		body: JsonObject;
		seeds: Record<string, number>;
		cell: { runId: string; key: string; sweep: { id: string; cell: number } };
	}): Promise<Result<ModelRun>>;
	getRun(id: string): Promise<ModelRun | null>;
	/** Stops the run: a queued request is asked to cancel, a synchronous call stops being waited for (the provider may still finish and charge). */
	cancel(id: string): Promise<unknown>;
	deleteRun(id: string): Promise<unknown>;
	/** Saved bytes of a result's asset. */
	bytes(key: string): Promise<Uint8Array | null>;
}
