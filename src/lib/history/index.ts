/** What other features may use of the history file: its public protocol types (see workflows/index.ts). */
export type { HistoryApi } from './protocol/api';
