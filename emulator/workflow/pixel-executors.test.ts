import { describe, expect, it } from 'vitest';
import type { NodeContext } from './executors';
import { PIXEL_EXECUTORS, blendChannel } from './pixel-executors';
import { SPECIFIC_EXECUTORS } from './specific-executors';
import type { ImageBatch, MaskBatch } from './pictures';

// These executors read no file and report no progress: they never touch the context.
const ctx = {} as NodeContext;
const solid = (width: number, height: number, rgb: [number, number, number]): ImageBatch => ({
	kind: 'image',
	frames: [{ width, height, data: Buffer.from(Array.from({ length: width * height }, () => rgb).flat()) }]
});
const pixel = (batch: unknown, x: number, y: number): number[] => {
	const f = (batch as ImageBatch).frames[0]!;
	return [...f.data.subarray((y * f.width + x) * 3, (y * f.width + x) * 3 + 3)];
};
const run = async (type: string, inputs: Record<string, unknown>) => (await PIXEL_EXECUTORS[type]!(inputs, ctx)).outputs[0];

describe('blend modes', () => {
	it.each([
		['normal', 0.2, 0.6, 0.6],
		['multiply', 0.5, 0.5, 0.25],
		['screen', 0.5, 0.5, 0.75],
		['difference', 0.2, 0.7, 0.5],
		['overlay', 0.25, 0.5, 0.25]
	])('%s of %d and %d is %d', (mode, a, b, expected) => {
		expect(blendChannel(a, b, mode)).toBeCloseTo(expected, 6);
	});
});

describe('pixel executors', () => {
	it('ImageBlend mixes by the factor: half of a multiply of white and grey is light grey', async () => {
		const out = await run('ImageBlend', {
			image1: solid(2, 2, [255, 255, 255]),
			image2: solid(2, 2, [128, 0, 255]),
			blend_factor: 0.5,
			blend_mode: 'multiply'
		});
		expect(pixel(out, 1, 1)).toEqual([192, 128, 255]);
	});

	it('ImageBlend fits a second image of another size to the first', async () => {
		const out = (await run('ImageBlend', {
			image1: solid(4, 2, [0, 0, 0]),
			image2: solid(1, 1, [200, 200, 200]),
			blend_factor: 1,
			blend_mode: 'normal'
		})) as ImageBatch;
		expect([out.frames[0]!.width, out.frames[0]!.height]).toEqual([4, 2]);
		expect(pixel(out, 3, 1)).toEqual([200, 200, 200]);
	});

	it('ImageCompositeMasked pastes the source at x, y where its mask says, and leaves the rest', async () => {
		const mask: MaskBatch = { kind: 'mask', frames: [{ width: 2, height: 1, data: Buffer.from([255, 0]) }] };
		const out = await run('ImageCompositeMasked', {
			destination: solid(4, 4, [10, 10, 10]),
			source: solid(2, 1, [250, 0, 0]),
			x: 1,
			y: 2,
			resize_source: false,
			mask
		});
		expect(pixel(out, 1, 2)).toEqual([250, 0, 0]);
		expect(pixel(out, 2, 2)).toEqual([10, 10, 10]);
		expect(pixel(out, 0, 0)).toEqual([10, 10, 10]);
	});

	it('SolidMask, MaskToImage and ImageToMask carry a value across', async () => {
		const mask = (await run('SolidMask', { value: 0.5, width: 3, height: 2 })) as MaskBatch;
		expect([...mask.frames[0]!.data]).toEqual([128, 128, 128, 128, 128, 128]);
		const image = await run('MaskToImage', { mask });
		expect(pixel(image, 2, 1)).toEqual([128, 128, 128]);
		const green = (await run('ImageToMask', { image: solid(1, 1, [1, 77, 3]), channel: 'green' })) as MaskBatch;
		expect([...green.frames[0]!.data]).toEqual([77]);
	});

	it('InvertMask keeps a mask one value a pixel, so MaskToImage can read it (an inpainting template’s chain)', async () => {
		const mask = (await run('SolidMask', { value: 0.2, width: 3, height: 2 })) as MaskBatch;
		const inverted = (await SPECIFIC_EXECUTORS['InvertMask']!({ mask }, ctx)).outputs[0] as MaskBatch;
		expect([...inverted.frames[0]!.data]).toEqual([204, 204, 204, 204, 204, 204]);
		expect(pixel(await run('MaskToImage', { mask: inverted }), 2, 1)).toEqual([204, 204, 204]);
	});
});
