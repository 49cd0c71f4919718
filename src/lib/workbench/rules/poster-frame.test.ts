import { describe, expect, it } from 'vitest';
import { isDarkFrame, meanLuma, posterTimes } from './poster-frame';

const pixels = (rgb: [number, number, number], n = 64) =>
	Uint8ClampedArray.from({ length: n * 4 }, (_, i) => (i % 4 === 3 ? 255 : rgb[i % 4]!));

describe('posterTimes', () => {
	it.each([
		[2, [0.2, 0.5, 1]],
		[30, [1, 7.5, 15]],
		[0.4, [0.04, 0.1, 0.2]]
	])('a %s s video is looked at %j', (duration, times) => {
		expect(posterTimes(duration).map((t) => Math.round(t * 100) / 100)).toEqual(times);
	});

	it.each([[0], [NaN], [Infinity], [-1]])('an unknown duration (%s) means the first frame', (duration) => {
		expect(posterTimes(duration)).toEqual([0]);
	});
});

describe('dark frames', () => {
	it('a black frame is dark, a test pattern is not', () => {
		expect(isDarkFrame(pixels([0, 0, 0]))).toBe(true);
		expect(isDarkFrame(pixels([8, 8, 8]))).toBe(true);
		expect(isDarkFrame(pixels([200, 40, 90]))).toBe(false);
	});

	it('weighs green most, as the eye does', () => {
		expect(meanLuma(pixels([0, 255, 0]))).toBeGreaterThan(meanLuma(pixels([255, 0, 0])));
		expect(meanLuma(new Uint8ClampedArray())).toBe(0);
	});
});
