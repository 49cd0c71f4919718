/**
 * What other features may use of pools: its public protocol types. Everything else in this folder
 * is its own (the import rules in .dependency-cruiser.cjs hold every other feature to this file).
 */
export type { Pool, PoolApi, PoolEvent } from './protocol/pool';
