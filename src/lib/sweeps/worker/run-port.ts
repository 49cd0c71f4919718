/** What a sweep needs of workflow runs: the worker's assembly hands in the workflow feature's own calls. */
import type { Result } from '../../core/protocol/errors';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import type { SubmitRunError, SubmitRunInput, SurfaceKind } from '../../workflows';

export interface SweepRunPort {
	submit(input: SubmitRunInput): Promise<Result<WorkflowRun, SubmitRunError>>;
	getRun(id: string): Promise<WorkflowRun | null>;
	stopRun(runId: string): Promise<unknown>;
	deleteRun(runId: string): Promise<void>;
	/** A run's output bytes (the cache first). */
	output(runId: string, index: number): Promise<Result<Blob>>;
	surfaceKind(profileId: string): Promise<SurfaceKind | null>;
}
