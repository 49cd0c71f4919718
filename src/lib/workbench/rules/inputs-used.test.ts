import { describe, expect, it } from 'vitest';
import { modelInputsUsed, workflowInputsUsed } from './inputs-used';

const keys = (items: Array<{ key: string }>) => items.map((i) => i.key);

describe('inputs used, in the form order', () => {
	it("lists a model body in the schema's order, not the order it was sent in, what people care about first", () => {
		const body = { guidance: 3.5, seed: 7, image_url: 'https://cdn.example/cat.png', num_steps: 20, prompt: 'a red boat', extra: true };
		const form = [
			{ name: 'prompt', label: 'Prompt' },
			{ name: 'image_url', label: 'Image', media: true },
			{ name: 'num_steps', label: 'Steps' },
			{ name: 'guidance', label: 'Guidance' },
			{ name: 'seed', label: 'Seed' }
		];
		const used = modelInputsUsed(body, form);
		expect(keys(used.first)).toEqual(['prompt', 'image_url', 'num_steps', 'seed']);
		expect(keys(used.rest)).toEqual(['guidance', 'extra']);
		expect(used.first[1]).toEqual({
			key: 'image_url',
			label: 'Image',
			text: 'https://cdn.example/cat.png',
			image: 'https://cdn.example/cat.png'
		});
		expect(used.first[0]).toMatchObject({ label: 'Prompt', text: 'a red boat' });
	});

	it('keeps the body order when the schema is not at hand, and shows no picture for a non-image address', () => {
		const used = modelInputsUsed({ b: 1, prompt: 'x', image_url: 'https://example.com/page' }, []);
		expect(keys(used.first)).toEqual(['prompt', 'image_url']);
		expect(used.first[1]?.image).toBeUndefined();
		expect(keys(used.rest)).toEqual(['b']);
	});

	it('lists a workflow in node order, each node in its input order, links left out', () => {
		const prompt = {
			'10': { class_type: 'KSampler', inputs: { seed: 5, steps: 20, cfg: 7, model: ['4', 0] } },
			'6': { class_type: 'CLIPTextEncode', _meta: { title: 'Positive' }, inputs: { text: 'a cat', clip: ['4', 1] } },
			'4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd.safetensors' } }
		};
		const used = workflowInputsUsed(prompt);
		expect(used.first.map((i) => i.label)).toEqual(['Positive · text', 'KSampler · seed', 'KSampler · steps']);
		expect(used.rest.map((i) => i.label)).toEqual(['CheckpointLoaderSimple · ckpt_name', 'KSampler · cfg']);
	});

	it('follows the canvas reading order of a UI-format workflow, as its form does', () => {
		const prompt = {
			'3': { class_type: 'KSampler', inputs: { seed: 5, steps: 20 } },
			'6': { class_type: 'CLIPTextEncode', _meta: { title: 'Positive' }, inputs: { text: 'a cat' } },
			'9': { class_type: 'SaveImage', inputs: { filename_prefix: 'x' } }
		};
		const used = workflowInputsUsed(prompt, new Map(), ['6', '3', 'gone']);
		expect(used.first.map((i) => i.label)).toEqual(['Positive · text', 'KSampler · seed', 'KSampler · steps']);
		expect(used.rest.map((i) => i.label)).toEqual(['SaveImage · filename_prefix']);
	});

	it('shows an input image the page could read beside its file name', () => {
		const prompt = { '2': { class_type: 'LoadImage', inputs: { image: 'cat.png', upload: 'image' } } };
		const used = workflowInputsUsed(prompt, new Map([['2.image', 'blob:cat']]));
		expect(used.first).toEqual([{ key: '2.image', label: 'LoadImage · image', text: 'cat.png', image: 'blob:cat' }]);
		expect(workflowInputsUsed(prompt).first[0]?.image).toBeUndefined();
	});
});
