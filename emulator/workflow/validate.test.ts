import { describe, expect, it } from 'vitest';
import { nodeDefinitions } from './nodes';
import { executionOrder, validatePrompt } from './validate';
import type { ApiPrompt } from '../../src/lib/workflows/protocol/workflow-api';

const defs = nodeDefinitions(['a.png']);
const save = (from: string): ApiPrompt[string] => ({ class_type: 'SaveImage', inputs: { images: [from, 0], filename_prefix: 'x' } });
const empty = (inputs: Record<string, unknown>): ApiPrompt => ({
	'1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0, ...inputs } },
	'2': save('1')
});

describe('validatePrompt coerces literals the way Python does in ComfyUI', () => {
	it.each([
		[{ width: '16' }, 16],
		[{ width: 16.9 }, 16],
		[{ width: true }, 1]
	])('INT %j becomes %d', (inputs, width) => {
		const result = validatePrompt(empty(inputs), defs);
		expect(result.ok && result.prompt['1']!.inputs['width']).toBe(width);
	});

	it.each([[{ width: 'wide' }], [{ width: null }], [{ width: {} }], [{ width: '1.5' }]])('INT %j is invalid_input_type', (inputs) => {
		const result = validatePrompt(empty(inputs), defs);
		expect(result.ok).toBe(false);
		if (!result.ok)
			expect(result.nodeErrors['1']!.errors[0]).toMatchObject({ type: 'invalid_input_type', extra_info: { input_name: 'width' } });
	});

	it('accepts FLOAT from a numeric string and refuses an empty one', () => {
		const prompt = (sigma: unknown): ApiPrompt => ({
			...empty({}),
			'3': { class_type: 'ImageBlur', inputs: { image: ['1', 0], blur_radius: 1, sigma } },
			'4': save('3')
		});
		const ok = validatePrompt(prompt('2.5'), defs);
		expect(ok.ok && ok.prompt['3']!.inputs['sigma']).toBe(2.5);
		const bad = validatePrompt(prompt(''), defs);
		expect(bad.ok).toBe(true); // the other output (node 2) still validates, as in ComfyUI
		expect(bad.ok && bad.nodeErrors['3']!.errors[0]!.type).toBe('invalid_input_type');
	});

	it('unwraps a value sent as {"__value__": ...} before checking it, as ComfyUI does', () => {
		const result = validatePrompt(empty({ width: { __value__: '16' } }), defs);
		expect(result.ok && result.prompt['1']!.inputs['width']).toBe(16);
		const list = validatePrompt(empty({ width: { __value__: [1, 2] } }), defs);
		expect(list.ok).toBe(false);
		if (!list.ok)
			expect(list.nodeErrors['1']!.errors[0]).toMatchObject({ type: 'invalid_input_type', extra_info: { input_name: 'width' } });
	});

	it('keeps the original prompt untouched', () => {
		const prompt = empty({ width: '16' });
		validatePrompt(prompt, defs);
		expect(prompt['1']!.inputs['width']).toBe('16');
	});

	it('refuses a prompt that is not an object, and a node without class_type', () => {
		expect(validatePrompt([], defs)).toMatchObject({ ok: false, error: { type: 'invalid_prompt' } });
		expect(validatePrompt({ '1': { inputs: {} } }, defs)).toMatchObject({
			ok: false,
			error: { type: 'invalid_prompt', details: "Node ID '#1'" }
		});
	});

	it('reports a bad link shape as bad_linked_input', () => {
		const result = validatePrompt({ '1': { class_type: 'SaveImage', inputs: { images: ['1', 0, 2], filename_prefix: 'x' } } }, defs);
		expect(result).toMatchObject({ ok: false, nodeErrors: { '1': { errors: [{ type: 'bad_linked_input' }] } } });
	});

	it('takes combos in both forms: a list of choices and COMBO with options', () => {
		const prompt: ApiPrompt = {
			'1': { class_type: 'LoadImageMask', inputs: { image: 'a.png', channel: 'purple' } },
			'2': { class_type: 'ImageScale', inputs: { image: ['3', 0], upscale_method: 'bilinear', width: 8, height: 8, crop: 'sideways' } },
			'3': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } },
			'4': save('2')
		};
		const result = validatePrompt(prompt, defs);
		expect(result.ok).toBe(false);
		if (!result.ok)
			expect(result.nodeErrors['2']!.errors[0]).toMatchObject({
				type: 'value_not_in_list',
				details: `crop: 'sideways' not in ["disabled","center"]`
			});
	});
});

describe('executionOrder', () => {
	it('puts every node after the nodes it links from, once', () => {
		const prompt: ApiPrompt = {
			'9': save('5'),
			'5': { class_type: 'ImageInvert', inputs: { image: ['1', 0] } },
			'1': { class_type: 'EmptyImage', inputs: {} },
			'7': save('1')
		};
		expect(executionOrder(prompt, ['9', '7'])).toEqual(['1', '5', '9', '7']);
	});
});
