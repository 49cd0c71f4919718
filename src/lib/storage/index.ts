/** What other features may use of the device's storage: its public protocol types (see workflows/index.ts). */
export type { StorageApi } from './protocol/api';
