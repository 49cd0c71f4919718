/**
 * What other features may use of workflows: its public protocol types. Everything else in this
 * folder is its own (the import rules in .dependency-cruiser.cjs hold every other feature to this file).
 */
export type { WorkflowApi, WorkflowEvent } from './protocol/api';
export type { ApiPrompt } from './protocol/workflow-api';
export type { NodeDefinitions } from './protocol/object-info';
export type { CancelManyReport, HandOverInput, QueueView, SubmitRunError, SubmitRunInput } from './protocol/api';
export type { SurfaceKind } from './protocol/surface-kind';
