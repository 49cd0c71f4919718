import { describe, expect, it } from 'vitest';
import { floatResolution, roundFloat } from './float-rounding';

describe('floatResolution (ComfyUI editor, default settings)', () => {
	it.each([
		{ step: 0.1, round: 0.01, expected: 0.01 },
		{ step: 0.01, round: undefined, expected: 0.01 },
		{ step: 0.01, round: false, expected: 0.01 },
		{ step: 0.1, round: undefined, expected: 0.1 },
		{ step: undefined, round: undefined, expected: 0.1 },
		{ step: 0.001, round: false, expected: 0.001 },
		{ step: 0.05, round: undefined, expected: 0.01 },
		{ step: 1, round: undefined, expected: undefined },
		{ step: 10, round: false, expected: undefined }
	])('step $step, round $round → $expected', ({ step, round, expected }) => {
		const got = floatResolution(step, round);
		if (expected === undefined) expect(got).toBeUndefined();
		else expect(got).toBeCloseTo(expected, 12);
	});
});

describe('roundFloat', () => {
	it('keeps 3.48 with step 0.1 and round 0.01: the value is not one of the steps, and that is fine', () => {
		expect(roundFloat(3.48, floatResolution(0.1, 0.01))).toBe(3.48);
	});
	it('snaps to the resolution without float noise', () => {
		expect(roundFloat(3.456, 0.01)).toBe(3.46);
		expect(roundFloat(0.1 + 0.2, 0.1)).toBe(0.3);
		expect(roundFloat(7.25, 0.5)).toBe(7.5);
	});
	it('keeps any value when there is no resolution, and clamps to the bounds', () => {
		expect(roundFloat(3.14159, undefined)).toBe(3.14159);
		expect(roundFloat(120, 0.1, 0, 100)).toBe(100);
		expect(roundFloat(-1, 0.1, 0, 100)).toBe(0);
	});
});
