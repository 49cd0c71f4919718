import { describe, expect, it } from 'vitest';
import { recordBytes, spaceParts } from './space-parts';

describe('what holds the space', () => {
	it('the rest is what the browser reports less the parts measured, so the parts add up to its figure', () => {
		const parts = spaceParts({ records: 1_000, outputs: 50_000, schemas: 20_000, thumbnails: 3_000 }, 200_000)!;
		expect(parts.other).toBe(126_000);
		expect(Object.values(parts).reduce((a, b) => a + b, 0)).toBe(200_000);
	});

	it('when the measured parts exceed the figure (the browser compresses), they are scaled to it', () => {
		const parts = spaceParts({ records: 4_000, outputs: 4_000, schemas: 1_000, thumbnails: 1_000 }, 5_000)!;
		expect(parts).toEqual({ records: 2_000, outputs: 2_000, schemas: 500, thumbnails: 500, other: 0 });
	});

	it('says nothing without a figure from the browser', () => {
		expect(spaceParts({ records: 1, outputs: 1, schemas: 1, thumbnails: 1 }, null)).toBeNull();
	});

	it('a record is sized by its JSON, its Blobs left to be counted apart', () => {
		expect(recordBytes({ a: 'é' })).toBe(10);
		expect(recordBytes({ a: 1, thumbnail: new Blob([new Uint8Array(500)]) })).toBe(7);
	});
});
