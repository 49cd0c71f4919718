/** What a pool needs of its members' workflow runs: the worker's assembly hands in the workflow feature's own calls. */
import type { Result } from '../../core/protocol/errors';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import type { NodeDefinitions, SubmitRunError, SubmitRunInput } from '../../workflows';

export interface PoolRunPort {
	submit(input: SubmitRunInput): Promise<Result<WorkflowRun, SubmitRunError>>;
	/** The member's node definitions (its saved copy when the server does not answer). */
	nodes(profileId: string): Promise<Result<NodeDefinitions>>;
	/** Jobs running and waiting on the member's own queue, read now: a member that does not answer is an error. */
	queueLength(profileId: string): Promise<Result<number>>;
	/** An input file the member already has, by its name there. */
	inputFile(profileId: string, name: string): Promise<Result<Blob>>;
	/** Gets a file to the member: found by hash where it can, uploaded otherwise; answers its name there. */
	sendInput(profileId: string, file: File): Promise<Result<{ name: string }>>;
}
