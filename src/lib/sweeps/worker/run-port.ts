/** What a sweep needs of workflow runs: the worker's assembly hands in the workflow feature's own calls. */
import type { Result } from '../../core/protocol/errors';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import type { SubmitRunError, SubmitRunInput, SurfaceKind } from '../../workflows';

export interface SweepRunPort {
	/** Sends a cell to its profile, or with `poolId` to the member the pool chooses. */
	submit(input: SubmitRunInput, poolId: string | null): Promise<Result<WorkflowRun, SubmitRunError>>;
	/** How many runs the pool takes at once now (its cells in flight at most); 0 when it is gone. */
	poolCapacity(poolId: string): Promise<number>;
	getRun(id: string): Promise<WorkflowRun | null>;
	stopRun(runId: string): Promise<unknown>;
	deleteRun(runId: string): Promise<void>;
	/** A run's output bytes (the cache first, else from its server, then cached). */
	output(runId: string, index: number): Promise<Result<Blob>>;
	/** A run's output bytes if they are in the cache; nothing is fetched. */
	cachedOutput(runId: string, index: number): Promise<Blob | null>;
	surfaceKind(profileId: string): Promise<SurfaceKind | null>;
}
