import { describe, expect, it } from 'vitest';
import type { NumberField } from './field-model';
import { sliderRange } from './slider-range';

const field = (over: Partial<NumberField>): NumberField => ({
	id: 'strength',
	path: ['strength'],
	label: 'Strength',
	kind: 'number',
	slider: true,
	required: false,
	advanced: false,
	nullable: false,
	...over
});

describe('sliderRange', () => {
	it.each<[string, Partial<NumberField>, { min: number; max: number } | null]>([
		['inclusive bounds are the ends', { min: 0, max: 1 }, { min: 0, max: 1 }],
		['an exclusive minimum stops one step inside', { min: 0, max: 1, step: 0.01, exclusiveMin: true }, { min: 0.01, max: 1 }],
		['an exclusive maximum stops one step inside', { min: 0, max: 10, step: 0.5, exclusiveMax: true }, { min: 0, max: 9.5 }],
		['no step: a thousandth of the range', { min: 0, max: 2, exclusiveMin: true, exclusiveMax: true }, { min: 0.002, max: 1.998 }],
		['a missing bound gives no slider', { min: 0 }, null],
		['a range too narrow for its insets gives no slider', { min: 0, max: 1, step: 0.5, exclusiveMin: true, exclusiveMax: true }, null]
	])('%s', (_name, over, expected) => {
		expect(sliderRange(field(over))).toEqual(expected);
	});
});
