/**
 * Each sweep cell's thumbnail (or its video's poster, or the note that it has none) in the worker's
 * store, `sweepthumb:<sweep id>:<cell>`, read through `parseCellThumbnail`. They are not cached
 * outputs: freeing space leaves them, so a grid still shows every cell once its outputs are gone;
 * freeing a sweep on the storage page may remove them too.
 */
import { SWEEP_THUMBNAIL_KEY } from '../../core/protocol/storage-keys';
import type { KeyValueStore } from '../../core/worker/kv-store';
import type { CellNoPoster, CellThumbnail } from '../protocol/sweep';
import { parseCellThumbnail } from '../rules/sweep-record';

const prefix = (sweepId: string) => `${SWEEP_THUMBNAIL_KEY}${sweepId}:`;

interface Held {
	count: number;
	bytes: number;
}

export class CellThumbnails {
	constructor(private readonly kv: KeyValueStore) {}

	async get(sweepId: string, cell: number): Promise<CellThumbnail | CellNoPoster | null> {
		return parseCellThumbnail(await this.kv.get<unknown>(prefix(sweepId) + cell));
	}

	put(sweepId: string, cell: number, thumbnail: CellThumbnail | CellNoPoster): Promise<void> {
		return this.kv.set(prefix(sweepId) + cell, thumbnail);
	}

	/**
	 * How many readable thumbnails and posters a sweep keeps and their bytes (IndexedDB hands Blobs
	 * back without reading them). A value that is neither is not counted: the grid cannot show it.
	 */
	async held(sweepId: string): Promise<{ thumbnails: Held; posters: Held }> {
		const held = { thumbnails: { count: 0, bytes: 0 }, posters: { count: 0, bytes: 0 } };
		for (const [, stored] of await this.kv.entries<unknown>(prefix(sweepId))) {
			const kept = parseCellThumbnail(stored);
			if (!kept || !('picture' in kept)) continue;
			const part = kept.poster ? held.posters : held.thumbnails;
			part.count++;
			part.bytes += kept.picture.size;
		}
		return held;
	}

	/** Removes every thumbnail and poster of a sweep in one transaction; returns what they held. */
	async remove(sweepId: string): Promise<Held> {
		const { thumbnails, posters } = await this.held(sweepId);
		await this.kv.deleteMany(await this.kv.keys(prefix(sweepId)));
		return { count: thumbnails.count + posters.count, bytes: thumbnails.bytes + posters.bytes };
	}
}
