/**
 * Each sweep cell's thumbnail in the worker's store, `sweepthumb:<sweep id>:<cell>`, read through
 * `parseCellThumbnail`. Thumbnails are not cached outputs: freeing space leaves them, so a grid still
 * shows every cell once its outputs are gone; freeing a sweep on the storage page may remove them too.
 */
import { SWEEP_THUMBNAIL_KEY } from '../../core/protocol/storage-keys';
import type { KeyValueStore } from '../../core/worker/kv-store';
import type { CellThumbnail } from '../protocol/sweep';
import { parseCellThumbnail } from '../rules/sweep-record';

const prefix = (sweepId: string) => `${SWEEP_THUMBNAIL_KEY}${sweepId}:`;

export class CellThumbnails {
	constructor(private readonly kv: KeyValueStore) {}

	async get(sweepId: string, cell: number): Promise<CellThumbnail | null> {
		return parseCellThumbnail(await this.kv.get<unknown>(prefix(sweepId) + cell));
	}

	put(sweepId: string, cell: number, thumbnail: CellThumbnail): Promise<void> {
		return this.kv.set(prefix(sweepId) + cell, thumbnail);
	}

	/**
	 * How many readable thumbnails a sweep keeps and their bytes (IndexedDB hands Blobs back without
	 * reading them). A value that is not one is not counted: the grid cannot show it.
	 */
	async held(sweepId: string): Promise<{ count: number; bytes: number }> {
		let [count, bytes] = [0, 0];
		for (const [, stored] of await this.kv.entries<unknown>(prefix(sweepId))) {
			const thumbnail = parseCellThumbnail(stored);
			if (!thumbnail) continue;
			count++;
			bytes += thumbnail.picture.size;
		}
		return { count, bytes };
	}

	/** Removes every thumbnail of a sweep in one transaction; returns what they held. */
	async remove(sweepId: string): Promise<{ count: number; bytes: number }> {
		const held = await this.held(sweepId);
		await this.kv.deleteMany(await this.kv.keys(prefix(sweepId)));
		return held;
	}
}
