/** What the leader's live socket hears, decoded, for the features that follow runs. */
import type { Frame } from '../protocol/frames';
import type { ServerEvent } from '../protocol/workflow-events';
import type { WorkerContext } from '../../core/worker/context';

export type SocketMessage = { kind: 'event'; profileId: string; event: ServerEvent } | { kind: 'frame'; profileId: string; frame: Frame };

/** The worker context as the workflow feature sees it: the core's, plus what the profile's socket hears. */
export interface WorkflowContext extends WorkerContext {
	/** Called with everything the leader's live socket hears: JSON events and decoded frames. */
	onSocketMessage(listener: (message: SocketMessage) => void): () => void;
}
