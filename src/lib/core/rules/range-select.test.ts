import { describe, expect, it } from 'vitest';
import { toggleInList } from './range-select';

const order = ['a', 'b', 'c', 'd', 'e'];

describe('picking items in a list', () => {
	it('toggles one item without Shift', () => {
		expect(toggleInList([], order, null, 'c', false)).toEqual({ selected: ['c'], anchor: 'c' });
		expect(toggleInList(['c'], order, 'c', 'c', false).selected).toEqual([]);
	});

	it('with Shift, picks everything from the last one picked to the one clicked, either way', () => {
		expect(toggleInList(['b'], order, 'b', 'd', true).selected).toEqual(['b', 'c', 'd']);
		expect(toggleInList(['d'], order, 'd', 'a', true).selected).toEqual(['a', 'b', 'c', 'd']);
	});

	it('with Shift on a picked item, unpicks the range', () => {
		expect(toggleInList(['a', 'b', 'c', 'd'], order, 'a', 'c', true).selected).toEqual(['d']);
	});

	it('without an anchor in the list, Shift picks just the one', () => {
		expect(toggleInList([], order, 'gone', 'b', true).selected).toEqual(['b']);
	});
});
