/** What the storage page needs of sweeps: the worker's assembly hands in the sweep feature's own calls. */
import type { SweepHolding } from '../../sweeps';

export interface SweepHoldings {
	/** Each sweep: its title, its cells' run ids, its thumbnails and posters, newest first. */
	list(): Promise<SweepHolding[]>;
	/** Removes a sweep's thumbnails and posters; returns what they held. */
	removeThumbnails(id: string): Promise<{ count: number; bytes: number }>;
}
