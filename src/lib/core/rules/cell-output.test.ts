import { describe, expect, it } from 'vitest';
import { cellFactsLine, shownOutput } from './cell-output';

const outputs = [
	{ source: '9', output: 'a.png' },
	{ source: '9', output: 'b.png' },
	{ source: '12', output: 'c.png' }
];

describe('the output a grid cell shows', () => {
	it.each([
		['nothing picked: the first', null, 0],
		['the picked node: its first output', '12', 2],
		['a node this run has no output from: the first', '7', 0]
	])('%s', (_name, picked, index) => {
		expect(shownOutput(outputs, picked)).toBe(index);
	});

	it('is none when the run has no output to show', () => {
		expect(shownOutput([], '9')).toBe(-1);
	});
});

describe('the facts under a cell', () => {
	it('says the seed, the time and how many outputs are not shown', () => {
		expect(cellFactsLine({ seed: 3, durationMs: 4200, others: 2 })).toMatch(/^seed 3 · .+ · \+2 more$/);
	});

	it('leaves out what is not known', () => {
		expect(cellFactsLine({ seed: undefined, durationMs: null, others: 0 })).toBe('');
	});
});
