/**
 * What other features may use of sweeps: its public protocol types. Everything else in this folder
 * is its own (the import rules in .dependency-cruiser.cjs hold every other feature to this file).
 */
export type { SweepApi, SweepEvent, SweepHolding, SweepRecord } from './protocol/sweep';
export { MODEL_AXIS } from './protocol/sweep';
export { SWEEP_TEXT_KEY } from './protocol/sweep';
