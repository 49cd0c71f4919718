/** What other features may use of the timeline: its public protocol types (see workflows/index.ts). */
export type { TimelineApi } from './protocol/api';
