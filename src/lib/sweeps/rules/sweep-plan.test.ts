import { describe, expect, it } from 'vitest';
import type { SweepAxis } from '../protocol/sweep';
import { axisGroups, cellPrompt, cellSeeds, planCells } from './sweep-plan';

const axis = (label: string, path: [string, string], values: SweepAxis['values'], extra: Partial<SweepAxis> = {}): SweepAxis => ({
	fieldId: path.join('.'),
	path,
	label,
	seed: false,
	values,
	pairedWithPrevious: false,
	...extra
});

const seed = axis('seed', ['3', 'seed'], [1, 2, 3], { seed: true });
const cfg = axis('cfg', ['3', 'cfg'], [4, 6, 8, 10]);

describe('sweep plans', () => {
	it('multiplies axes: 3 seeds by 4 CFG values are 12 runs, seeds varying fastest', () => {
		expect(axisGroups([seed, cfg])).toMatchObject({ ok: true, count: 12 });
		const cells = planCells([seed, cfg]);
		expect(cells).toHaveLength(12);
		expect(cells.slice(0, 4).map((c) => [c.place, c.values])).toEqual([
			[
				[0, 0],
				[1, 4]
			],
			[
				[1, 0],
				[2, 4]
			],
			[
				[2, 0],
				[3, 4]
			],
			[
				[0, 1],
				[1, 6]
			]
		]);
	});
	it('moves paired axes together, and refuses pairs of different lengths', () => {
		const width = axis('width', ['5', 'width'], [512, 768]);
		const height = axis('height', ['5', 'height'], [768, 512], { pairedWithPrevious: true });
		expect(axisGroups([width, height])).toMatchObject({ ok: true, count: 2 });
		expect(planCells([width, height]).map((c) => c.values)).toEqual([
			[512, 768],
			[768, 512]
		]);
		expect(axisGroups([width, { ...height, values: [1] }])).toMatchObject({ ok: false, message: expect.stringContaining('same number') });
	});
	it('refuses no axis, four axes and more than 400 runs', () => {
		expect(axisGroups([])).toMatchObject({ ok: false });
		expect(axisGroups([seed, cfg, seed, cfg])).toMatchObject({ ok: false });
		const many = axis(
			'steps',
			['3', 'steps'],
			Array.from({ length: 40 }, (_, i) => i + 1)
		);
		expect(axisGroups([many, many, seed])).toMatchObject({ ok: false, message: expect.stringContaining('4800 runs') });
	});
	it('writes a cell’s values into a copy of the frozen workflow, and shows a seed axis as the seed', () => {
		const base = { '3': { class_type: 'KSampler', inputs: { seed: 9, cfg: 8, steps: 20 } } };
		expect(cellPrompt(base, [seed, cfg], [2, 6])['3']!.inputs).toEqual({ seed: 2, cfg: 6, steps: 20 });
		expect(base['3'].inputs.seed).toBe(9);
		expect(cellSeeds({ '3.seed': 9, '10.noise_seed': 5 }, [seed, cfg], [2, 6])).toEqual({ '3.seed': 2, '10.noise_seed': 5 });
	});
});
