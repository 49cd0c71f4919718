import { describe, expect, it } from 'vitest';
import { differingLabels, flattenBody, flattenPrompt } from './compare-inputs';

describe('compare inputs', () => {
	it('flattens a model body and finds the inputs that differ', () => {
		const a = flattenBody({ prompt: 'a kite', num_images: 1, image_size: { width: 512, height: 512 }, loras: ['x', 'y'] });
		const b = flattenBody({ prompt: 'a boat', num_images: 1, image_size: { width: 512, height: 768 } });
		expect(a.get('image_size.height')).toBe('512');
		expect(a.get('loras')).toBe('x, y');
		expect([...differingLabels([a, b])]).toEqual(['prompt', 'image_size.height', 'loras']);
	});

	it('flattens a workflow prompt by node title, leaving links out', () => {
		const flat = flattenPrompt({
			'3': { class_type: 'KSampler', inputs: { seed: 7, model: ['4', 0] }, _meta: { title: 'Sampler' } },
			'6': { class_type: 'CLIPTextEncode', inputs: { text: 'a cat' } }
		});
		expect([...flat]).toEqual([
			['Sampler · seed', '7'],
			['CLIPTextEncode · text', 'a cat']
		]);
	});

	it('finds nothing to highlight in equal runs', () => {
		const a = flattenBody({ prompt: 'same' });
		expect(differingLabels([a, flattenBody({ prompt: 'same' })]).size).toBe(0);
	});
});
