import { describe, expect, it } from 'vitest';
import type { ApiPrompt } from '../protocol/workflow-api';
import { differingValues } from './queue-differences';

const prompt = (seed: number, text: string, steps = 20): ApiPrompt => ({
	'3': { class_type: 'KSampler', inputs: { seed, steps, model: ['4', 0] } },
	'6': { class_type: 'CLIPTextEncode', inputs: { text, clip: ['4', 1] } }
});

describe('differingValues', () => {
	it('names the seed that tells two runs of one workflow apart, and nothing they share', () => {
		expect(differingValues([prompt(1, 'a cat'), prompt(2, 'a cat')])).toEqual([
			[{ label: 'seed', value: '1' }],
			[{ label: 'seed', value: '2' }]
		]);
	});

	it('puts seeds first and cuts long text at a word', () => {
		const long = 'a lighthouse at dusk with volumetric fog over a stormy sea';
		const [a] = differingValues([prompt(1, long, 20), prompt(2, 'a cat', 30)]);
		expect(a).toEqual([
			{ label: 'seed', value: '1' },
			{ label: 'steps', value: '20' },
			{ label: 'text', value: 'a lighthouse at dusk with volumetric…' }
		]);
	});

	it('shows nothing for a single run, a run with no record, or links', () => {
		expect(differingValues([prompt(1, 'x')])).toEqual([[]]);
		expect(differingValues([prompt(1, 'x'), null, prompt(1, 'x')])).toEqual([[], [], []]);
	});

	it('compares only inputs every run has (runs of other workflows)', () => {
		const other: ApiPrompt = { '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'x' } } };
		expect(differingValues([prompt(1, 'x'), other])).toEqual([[], []]);
	});
});
