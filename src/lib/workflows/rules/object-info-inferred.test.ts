import { describe, expect, it } from 'vitest';
import type { ApiPrompt } from '../protocol/workflow-api';
import { workflowFieldGroups } from './object-info-fields';
import { definitionsFromWorkflow } from './object-info-inferred';
import { checkWorkflow } from './workflow-check';
import imageEdit from './examples/image-edit.json';

const prompt: ApiPrompt = {
	'1': { class_type: 'LoadImage', inputs: { image: 'photo.png' } },
	'2': { class_type: 'CLIPTextEncode', inputs: { text: 'a cat', clip: ['4', 1] } },
	'3': {
		class_type: 'KSampler',
		inputs: { seed: 5, steps: 20, cfg: 8, denoise: 0.75, sampler_name: 'euler', add_noise: true, model: ['4', 0], positive: ['2', 0] }
	},
	'4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd15.safetensors' } },
	'5': { class_type: 'CLIPTextEncode', inputs: { text: ['6', 0], clip: ['4', 1] } },
	'6': { class_type: 'PrimitiveString', inputs: { value: 'x', list: [1, 2, 3] } }
};

describe('node definitions read off the workflow (a deployment publishes none)', () => {
	const nodes = definitionsFromWorkflow(prompt);
	const fields = Object.fromEntries(workflowFieldGroups(prompt, nodes).flatMap((g) => g.fields.map((f) => [f.id, f.kind])));

	it.each([
		['1.image', 'media'],
		['2.text', 'textarea'],
		['3.seed', 'seed'],
		['3.steps', 'integer'],
		['3.cfg', 'number'],
		['3.denoise', 'number'],
		['3.sampler_name', 'text'],
		['3.add_noise', 'boolean'],
		['4.ckpt_name', 'text']
	])('%s is a %s field', (id, kind) => expect(fields[id]).toBe(kind));

	it('links and lists are not fields', () => {
		expect(fields['3.model']).toBeUndefined();
		expect(fields['6.list']).toBeUndefined();
	});

	it('a value beats a link for an input of the same class', () => {
		expect(nodes['CLIPTextEncode']!.inputs.find((i) => i.name === 'text')!.type.kind).toBe('STRING');
	});

	it('the workflow passes its own check: every type known, every linked output slot present, nothing required', () => {
		expect(checkWorkflow(prompt, nodes)).toEqual([]);
		expect(checkWorkflow(imageEdit as ApiPrompt, definitionsFromWorkflow(imageEdit as ApiPrompt))).toEqual([]);
		expect(nodes['CheckpointLoaderSimple']!.outputs).toHaveLength(2);
	});

	it('keeps names from the file as own keys only', () => {
		const odd: ApiPrompt = { '1': { class_type: 'constructor', inputs: { toString: 'x' } } };
		const defs = definitionsFromWorkflow(odd);
		expect(Object.getPrototypeOf(defs)).toBeNull();
		expect(Object.keys(defs)).toEqual(['constructor']);
	});
});
