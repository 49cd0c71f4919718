/**
 * Pixel work done for real on small pictures: blending two images, pasting one into another through
 * a mask, and the mask conversions around them. Plain per-pixel arithmetic on RGB bytes (0-255) and
 * one-channel masks (255 = masked); sizes follow ComfyUI's rules (the second image or the source is
 * fitted to the first, batches repeat their last frame).
 */
import { type Executor, ExecutionFailure, guardMemory } from './executors';
import { type ImageBatch, type MaskBatch, type RawImage, resize } from './pictures';

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));

function images(v: unknown, name: string): ImageBatch {
	const batch = v as ImageBatch;
	if (batch?.kind !== 'image') throw new ExecutionFailure('ValidationError', `expected an IMAGE for ${name}`);
	return batch;
}

function masks(v: unknown, name: string): MaskBatch {
	const batch = v as MaskBatch;
	if (batch?.kind !== 'mask') throw new ExecutionFailure('ValidationError', `expected a MASK for ${name}`);
	return batch;
}

const at = <T>(frames: T[], i: number): T => frames[Math.min(i, frames.length - 1)]!;

/** One channel value of `a` blended with `b` (both 0..1) by a mode of ImageBlend. */
export function blendChannel(a: number, b: number, mode: string): number {
	switch (mode) {
		case 'multiply':
			return a * b;
		case 'screen':
			return 1 - (1 - a) * (1 - b);
		case 'overlay':
			return a <= 0.5 ? 2 * a * b : 1 - 2 * (1 - a) * (1 - b);
		case 'soft_light':
			return b <= 0.5 ? a - (1 - 2 * b) * a * (1 - a) : a + (2 * b - 1) * ((a <= 0.25 ? ((16 * a - 12) * a + 4) * a : Math.sqrt(a)) - a);
		case 'difference':
			return Math.abs(a - b);
		default:
			return b;
	}
}

async function fitted(frame: RawImage, width: number, height: number): Promise<RawImage> {
	return frame.width === width && frame.height === height ? frame : resize(frame, width, height, 'cubic');
}

export const PIXEL_EXECUTORS: Record<string, Executor> = {
	async ImageBlend(inputs) {
		const first = images(inputs['image1'], 'image1');
		const second = images(inputs['image2'], 'image2');
		const factor = Math.min(1, Math.max(0, num(inputs['blend_factor'])));
		const mode = String(inputs['blend_mode']);
		const frames = await Promise.all(
			first.frames.map(async (a, i) => {
				guardMemory(a.width, a.height, 1);
				const b = await fitted(at(second.frames, i), a.width, a.height);
				const data = Buffer.alloc(a.data.length);
				for (let p = 0; p < data.length; p++) {
					const x = a.data[p]! / 255;
					const mixed = x * (1 - factor) + blendChannel(x, b.data[p]! / 255, mode) * factor;
					data[p] = Math.round(Math.min(1, Math.max(0, mixed)) * 255);
				}
				return { width: a.width, height: a.height, data };
			})
		);
		return { outputs: [{ kind: 'image', frames } satisfies ImageBatch] };
	},

	async ImageCompositeMasked(inputs) {
		const destination = images(inputs['destination'], 'destination');
		const source = images(inputs['source'], 'source');
		const mask = inputs['mask'] === undefined ? undefined : masks(inputs['mask'], 'mask');
		const left = Math.max(0, Math.floor(num(inputs['x'])));
		const top = Math.max(0, Math.floor(num(inputs['y'])));
		const frames = await Promise.all(
			destination.frames.map(async (d, i) => {
				let s = at(source.frames, i);
				if (inputs['resize_source'] === true) s = await fitted(s, d.width, d.height);
				const m = mask ? at(mask.frames, i) : undefined;
				const data = Buffer.from(d.data);
				for (let y = 0; y < s.height && y + top < d.height; y++) {
					for (let x = 0; x < s.width && x + left < d.width; x++) {
						// The mask is read over the source, stretched to its size; no mask pastes all of it.
						const weight = m ? m.data[Math.floor((y * m.height) / s.height) * m.width + Math.floor((x * m.width) / s.width)]! / 255 : 1;
						const to = ((y + top) * d.width + x + left) * 3;
						const from = (y * s.width + x) * 3;
						for (let c = 0; c < 3; c++) data[to + c] = Math.round(d.data[to + c]! * (1 - weight) + s.data[from + c]! * weight);
					}
				}
				return { width: d.width, height: d.height, data };
			})
		);
		return { outputs: [{ kind: 'image', frames } satisfies ImageBatch] };
	},

	async MaskToImage(inputs) {
		const mask = masks(inputs['mask'], 'mask');
		const frames = mask.frames.map((f) => {
			const data = Buffer.alloc(f.width * f.height * 3);
			for (let p = 0; p < f.data.length; p++) data.fill(f.data[p]!, p * 3, p * 3 + 3);
			return { width: f.width, height: f.height, data };
		});
		return { outputs: [{ kind: 'image', frames } satisfies ImageBatch] };
	},

	async ImageToMask(inputs) {
		const batch = images(inputs['image'], 'image');
		const channel = ['red', 'green', 'blue'].indexOf(String(inputs['channel']));
		const frames = batch.frames.map((f) => {
			const data = Buffer.alloc(f.width * f.height);
			// An alpha channel is not kept on IMAGE values here: it reads as fully opaque.
			for (let p = 0; p < data.length; p++) data[p] = channel === -1 ? 255 : f.data[p * 3 + channel]!;
			return { width: f.width, height: f.height, data };
		});
		return { outputs: [{ kind: 'mask', frames } satisfies MaskBatch] };
	},

	async SolidMask(inputs) {
		const width = Math.max(1, Math.floor(num(inputs['width'])));
		const height = Math.max(1, Math.floor(num(inputs['height'])));
		guardMemory(width, height, 1);
		const value = Math.round(Math.min(1, Math.max(0, num(inputs['value']))) * 255);
		return { outputs: [{ kind: 'mask', frames: [{ width, height, data: Buffer.alloc(width * height, value) }] } satisfies MaskBatch] };
	}
};
