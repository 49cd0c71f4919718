/** What the leader's live socket hears, decoded, for the features that follow runs. */
import type { Frame } from '../wire/frames';
import type { ServerEvent } from '../wire/workflow-events';

export type SocketMessage = { kind: 'event'; profileId: string; event: ServerEvent } | { kind: 'frame'; profileId: string; frame: Frame };
