import { describe, expect, it } from 'vitest';
import { readAxisValues } from './axis-values';

describe('readAxisValues', () => {
	it('reads a list of numbers', () => {
		expect(readAxisValues('number', '4, 6.5, 8')).toEqual({ ok: true, values: [4, 6.5, 8] });
	});
	it('reads a range with a step, without float noise', () => {
		expect(readAxisValues('number', '0.1..0.5 step 0.1')).toEqual({ ok: true, values: [0.1, 0.2, 0.3, 0.4, 0.5] });
		expect(readAxisValues('integer', '3 to 1')).toEqual({ ok: true, values: [3, 2, 1] });
	});
	it('reads a seed range and N random seeds within the bounds', () => {
		expect(readAxisValues('seed', '1..3')).toEqual({ ok: true, values: [1, 2, 3] });
		// A draw already taken moves to the next free seed.
		expect(readAxisValues('seed', '4 random', { min: 0, max: 9 }, () => 0.55)).toEqual({ ok: true, values: [5, 6, 7, 8] });
		const seq = [0.1, 0.1, 0.5, 0.9];
		expect(readAxisValues('seed', 'random 4', { min: 0, max: 9 }, () => seq.shift() ?? 0)).toEqual({ ok: true, values: [1, 2, 5, 9] });
		expect(readAxisValues('seed', '5 random', { min: 0, max: 2 }, () => 0)).toEqual({ ok: true, values: [0, 1, 2] });
	});
	it('reads prompt lines', () => {
		expect(readAxisValues('text', 'a red boat\n\n  a blue car \n')).toEqual({ ok: true, values: ['a red boat', 'a blue car'] });
	});
	it('says what is wrong in the field’s words', () => {
		expect(readAxisValues('integer', '1, 2.5')).toEqual({ ok: false, message: '2.5 is not a whole number.' });
		expect(readAxisValues('number', '1, x')).toMatchObject({ ok: false, message: expect.stringContaining('"x" is not a number') });
		expect(readAxisValues('number', '1..30', { max: 20 })).toMatchObject({ ok: false, message: expect.stringContaining('above the most') });
		expect(readAxisValues('number', '1..1000')).toMatchObject({ ok: false, message: expect.stringContaining('at most 400') });
		expect(readAxisValues('number', '1..3 step 0')).toMatchObject({ ok: false });
	});
});
