import { describe, expect, it } from 'vitest';
import { posterSize, thumbnailSize } from './thumbnail-size';

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

describe("the size of a video's poster", () => {
	it.each([
		{ what: 'a 1080p video is drawn at 256 wide', width: 1920, height: 1080, out: { width: 256, height: 144 } },
		{ what: 'a portrait video at 256 tall', width: 1080, height: 1920, out: { width: 144, height: 256 } },
		{ what: "the emulator's 160 x 90 clip is drawn at its own size", width: 160, height: 90, out: { width: 160, height: 90 } },
		{ what: 'a frame that says it has no size is drawn at a pixel, never zero', width: 0, height: 0, out: { width: 1, height: 1 } }
	])('$what', ({ width, height, out }) => {
		expect(posterSize(width, height)).toEqual(out);
	});
});
