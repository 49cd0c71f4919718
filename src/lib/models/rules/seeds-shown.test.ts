import { describe, expect, it } from 'vitest';
import type { ModelResult } from './model-run';
import { seedsShown } from './seeds-shown';

const result = (json: ModelResult['json']): ModelResult => ({ contentType: 'application/json', size: 1, bytesKey: '', assets: [], json });

describe('the seeds a model run names', () => {
	it.each([
		{
			name: 'the seed the app drew, reported back the same: named once',
			run: { seeds: { seed: 0 }, result: result({ seed: 0 }) },
			shown: [['seed', 0]]
		},
		{ name: 'a seed the app drew, no result yet', run: { seeds: { seed: 7 } }, shown: [['seed', 7]] },
		{ name: 'a seed only the result reports', run: { result: result({ seed: 42 }) }, shown: [['seed', 42]] },
		{
			name: 'a reported seed that differs from the one sent',
			run: { seeds: { seed: 1 }, result: result({ seed: 2 }) },
			shown: [
				['seed', 1],
				['seed', 2]
			]
		},
		{ name: 'a result whose seed is not a number', run: { result: result({ seed: 'x' }) }, shown: [] }
	])('$name', ({ run, shown }) => {
		expect(seedsShown(run)).toEqual(shown);
	});
});
