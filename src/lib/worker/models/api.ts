/** The model-runs part of the worker API (issue: model runs in the app). */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ModelApi {}

export type ModelEvent = never;
