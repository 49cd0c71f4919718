/** What other features may use of models: its public protocol types (see workflows/index.ts). */
export type { ModelApi, ModelEvent } from './protocol/api';
