import { describe, expect, it } from 'vitest';
import { thumbnailSize } from './thumbnail-size';

describe('the size of a thumbnail', () => {
	it.each([
		{ what: 'a square is scaled to the side', width: 1024, height: 1024, side: 256, out: { width: 256, height: 256, fits: false } },
		{ what: 'a wide picture keeps its shape', width: 1920, height: 1080, side: 256, out: { width: 256, height: 144, fits: false } },
		{ what: 'a tall picture keeps its shape', width: 512, height: 768, side: 256, out: { width: 171, height: 256, fits: false } },
		{ what: 'a thin strip keeps at least a pixel', width: 4000, height: 2, side: 256, out: { width: 256, height: 1, fits: false } },
		{ what: 'a picture that fits is kept as it is', width: 200, height: 100, side: 256, out: { width: 200, height: 100, fits: true } },
		{ what: 'exactly the side fits', width: 256, height: 64, side: 256, out: { width: 256, height: 64, fits: true } }
	])('$what', ({ width, height, side, out }) => {
		expect(thumbnailSize(width, height, side)).toEqual(out);
	});
});
