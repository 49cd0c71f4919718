/** What a pool needs of its members' workflow runs: the worker's assembly hands in the workflow feature's own calls. */
import type { Result } from '../../core/protocol/errors';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import type { HandOverInput, NodeDefinitions, QueueView, SubmitRunError, SubmitRunInput } from '../../workflows';

export interface PoolRunPort {
	submit(input: SubmitRunInput): Promise<Result<WorkflowRun, SubmitRunError>>;
	/** The member's node definitions (its saved copy when the server does not answer). */
	nodes(profileId: string): Promise<Result<NodeDefinitions>>;
	/** The member's own queue, read now (running and waiting jobs): a member that does not answer is an error. */
	queue(profileId: string): Promise<Result<QueueView>>;
	/** Lets the next read of a member that did not answer go out at once instead of after its backoff. */
	wake(profileId: string): Promise<void>;
	/** An input file the member already has, by its name there. */
	inputFile(profileId: string, name: string): Promise<Result<Blob>>;
	/** Gets a file to the member: found by hash where it can, uploaded otherwise; answers its name there. */
	sendInput(profileId: string, file: File): Promise<Result<{ name: string }>>;
	/** Every run not ended yet, as it is now. */
	openRuns(): Promise<WorkflowRun[]>;
	getRun(runId: string): Promise<WorkflowRun | null>;
	/** Takes a run off its server (confirmed gone from there first), saying where it went. */
	handOver(input: HandOverInput): Promise<Result<WorkflowRun>>;
}
