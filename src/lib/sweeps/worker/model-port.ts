/** What a model sweep needs of model runs: the worker's assembly hands in the model feature's own calls. */
import type { Result } from '../../core/protocol/errors';
import type { ModelRun } from '../../core/protocol/model-run';
import type { JsonObject } from '../../core/protocol/json';

export interface SweepModelPort {
	/** Saves the run under the cell's run id and key, then sends it to the router's queue. */
	start(input: {
		profileId: string;
		modelId: string;
		body: JsonObject;
		seeds: Record<string, number>;
		cell: { runId: string; key: string; sweep: { id: string; cell: number } };
	}): Promise<Result<ModelRun>>;
	getRun(id: string): Promise<ModelRun | null>;
	/** Asks the queue to cancel the request (a run already at the provider may still finish). */
	cancel(id: string): Promise<unknown>;
	deleteRun(id: string): Promise<unknown>;
	/** Saved bytes of a result's asset. */
	bytes(key: string): Promise<Uint8Array | null>;
}
