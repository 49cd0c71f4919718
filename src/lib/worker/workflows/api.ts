/** The workflow-runs part of the worker API (issue: workflow runs in the app). */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface WorkflowApi {}

export type WorkflowEvent = never;
