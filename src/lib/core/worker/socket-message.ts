/** What the leader's live socket hears, decoded, for the features that follow runs. */
import type { Frame } from '../../workflows/protocol/frames';
import type { ServerEvent } from '../../workflows/protocol/workflow-events';

export type SocketMessage = { kind: 'event'; profileId: string; event: ServerEvent } | { kind: 'frame'; profileId: string; frame: Frame };
