import { describe, expect, it } from 'vitest';
import type { Json } from '../../core/protocol/json';
import type { ApiPrompt } from '../../workflows/protocol/workflow-api';
import { inputImageOfBody, loadedImageNames, loadedImages } from './edit-input';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

describe('inputImageOfBody', () => {
	it.each<[string, Json, string | null]>([
		['a link', { prompt: 'p', image_url: 'https://example.com/a.png' }, 'https://example.com/a.png'],
		['a chosen file, sent inline', { prompt: 'p', image_url: PNG }, PNG],
		[
			'a file whose type the browser did not know',
			{ image: 'data:application/octet-stream;base64,AAAA' },
			'data:application/octet-stream;base64,AAAA'
		],
		['nested under input', { input: { image: 'https://example.com/b.png' } }, 'https://example.com/b.png'],
		['the first of a list', { image_urls: ['https://example.com/1.png', 'https://example.com/2.png'] }, 'https://example.com/1.png'],
		['a mask is not the picture', { mask_url: 'https://example.com/m.png' }, null],
		['nor an image size', { image_size: 'square_hd' }, null],
		['a prompt that names an image is not one', { prompt: 'an image of https://example.com' }, null],
		['text, not a link', { image_url: 'a cat' }, null],
		['no body', null, null]
	])('%s', (_name, body, expected) => {
		expect(inputImageOfBody(body)).toBe(expected);
	});
});

describe('loadedImageNames', () => {
	const load = (image: unknown): ApiPrompt[string] => ({ class_type: 'LoadImage', inputs: { image } as never });

	it('names the pictures LoadImage nodes load, in node order', () => {
		const prompt: ApiPrompt = {
			'10': load('second.png'),
			'2': load('first.png [input]'),
			'3': { class_type: 'ImageInvert', inputs: { image: ['2', 0] } },
			'4': { class_type: 'LoadImageMask', inputs: { image: 'mask.png', channel: 'alpha' } }
		};
		expect(loadedImageNames(prompt)).toEqual(['first.png', 'second.png']);
		expect(loadedImages(prompt)).toEqual([
			{ nodeId: '2', name: 'first.png' },
			{ nodeId: '10', name: 'second.png' }
		]);
	});

	it.each([['ComfyUI_0001_.png [output]'], ['preview.png [temp]'], [''], [['5', 0]]])('leaves out %j', (image) => {
		expect(loadedImageNames({ '1': load(image) })).toEqual([]);
	});
});
