/** What the storage page needs of sweeps: the worker's assembly hands in the sweep feature's own calls. */
import type { SweepHolding } from '../../sweeps';

export interface SweepHoldings {
	/** Each sweep: its title, its cells' run ids and its thumbnails, newest first. */
	list(): Promise<SweepHolding[]>;
	/** Removes a sweep's thumbnails; returns what they held. */
	removeThumbnails(id: string): Promise<{ count: number; bytes: number }>;
}
