import { describe, expect, it } from 'vitest';
import { MAX_ZOOM, MIN_ZOOM, pinchZoom, stepZoom } from './grid-zoom';

describe('the grid’s zoom', () => {
	it('follows the fingers: twice as far apart, twice the zoom it had when they went down', () => {
		expect(pinchZoom(0.8, 100, 200)).toBe(1.6);
		expect(pinchZoom(1, 200, 100)).toBe(0.5);
	});

	it('stays between its bounds, and a pinch that starts with the fingers together changes nothing', () => {
		expect(pinchZoom(1, 10, 1000)).toBe(MAX_ZOOM);
		expect(pinchZoom(1, 1000, 10)).toBe(MIN_ZOOM);
		expect(pinchZoom(1.2, 0, 50)).toBe(1.2);
		expect(stepZoom(MAX_ZOOM, 1)).toBe(MAX_ZOOM);
		expect(stepZoom(1, -1)).toBe(0.8);
	});
});
