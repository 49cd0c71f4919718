import { describe, expect, it } from 'vitest';
import { nodeLabel, outputChoices } from './output-choices';

describe("a sweep grid's output choices", () => {
	it('lists each output node once, in the order the runs gave them', () => {
		expect(outputChoices(['9', '12', '9', '12', '15'], (s) => `n${s}`)).toEqual([
			{ source: '9', label: 'n9' },
			{ source: '12', label: 'n12' },
			{ source: '15', label: 'n15' }
		]);
	});

	it.each([
		['a titled node: its title', '9', 'Final #9'],
		['an untitled node: its kind', '7', 'PreviewImage #7'],
		['a node the workflow no longer has', '3', 'Node 3'],
		['a name on the prototype is no node', '__proto__', 'Node __proto__']
	])('%s', (_name, id, label) => {
		const base = {
			'9': { class_type: 'SaveImage', inputs: {}, _meta: { title: 'Final' } },
			'7': { class_type: 'PreviewImage', inputs: {} }
		};
		expect(nodeLabel(base, id)).toBe(label);
	});
});
