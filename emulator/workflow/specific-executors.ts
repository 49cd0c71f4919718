/**
 * Core nodes whose work is cheap enough to do for real, beyond executors.ts: pixel work on images
 * and latents the generic executor would only pass through.
 */
import sharp from 'sharp';
import { type Executor, type Latent, ExecutionFailure, guardMemory } from './executors';
import { decodeLatent } from './generic-executor';
import { type ImageBatch, type Kernel, type RawImage, negated, rawInput, resize } from './pictures';

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const KERNELS: Record<string, Kernel> = {
	'nearest-exact': 'nearest',
	bilinear: 'linear',
	area: 'mitchell',
	bicubic: 'cubic',
	bislerp: 'cubic',
	lanczos: 'lanczos3'
};

function images(v: unknown): ImageBatch {
	const batch = v as ImageBatch;
	if (batch?.kind !== 'image') throw new ExecutionFailure('ValidationError', 'expected an IMAGE input');
	return batch;
}

async function scaled(batch: ImageBatch, width: number, height: number, kernel: Kernel): Promise<ImageBatch> {
	guardMemory(width, height, batch.frames.length);
	return { kind: 'image', frames: await Promise.all(batch.frames.map((f) => resize(f, width, height, kernel))) };
}

/** The factor an upscale model's file name states (`RealESRGAN_x2`, `4x-UltraSharp`); 4 when it says none. */
export function upscaleFactor(modelName: string): number {
	const match = /(?:^|[^a-z0-9])x?([1-8])x(?![a-z])|_x([1-8])(?![0-9])/i.exec(modelName);
	return Number(match?.[1] ?? match?.[2] ?? 4);
}

async function flipped(frame: RawImage, direction: string): Promise<RawImage> {
	const pipeline = sharp(frame.data, rawInput(frame));
	const { data } = await (direction.startsWith('x') ? pipeline.flip() : pipeline.flop()).raw().toBuffer({ resolveWithObject: true });
	return { ...frame, data };
}

/** A frame grown by the given margins, the new border mid-grey (as ComfyUI fills it), and the mask of that border. */
async function padded(frame: RawImage, left: number, top: number, right: number, bottom: number) {
	const width = frame.width + left + right;
	const height = frame.height + top + bottom;
	guardMemory(width, height, 1);
	const { data } = await sharp(frame.data, rawInput(frame))
		.extend({ left, top, right, bottom, background: { r: 128, g: 128, b: 128 } })
		.raw()
		.toBuffer({ resolveWithObject: true });
	const mask = Buffer.alloc(width * height, 255);
	for (let y = 0; y < frame.height; y++) mask.fill(0, (y + top) * width + left, (y + top) * width + left + frame.width);
	return { image: { width, height, data }, mask: { width, height, data: mask } };
}

export const SPECIFIC_EXECUTORS: Record<string, Executor> = {
	async ImagePadForOutpaint(inputs) {
		const batch = images(inputs['image']);
		const [left, top, right, bottom] = ['left', 'top', 'right', 'bottom'].map((k) => Math.max(0, Math.floor(num(inputs[k]))));
		const frames = await Promise.all(batch.frames.map((f) => padded(f, left!, top!, right!, bottom!)));
		return {
			outputs: [
				{ kind: 'image', frames: frames.map((f) => f.image) },
				{ kind: 'mask', frames: frames.map((f) => f.mask) }
			]
		};
	},
	async VAEDecode(inputs) {
		return { outputs: [await decodeLatent(inputs['samples'] as Latent)] };
	},
	async VAEDecodeTiled(inputs) {
		return { outputs: [await decodeLatent(inputs['samples'] as Latent)] };
	},
	async ImageUpscaleWithModel(inputs) {
		const batch = images(inputs['image']);
		const factor = upscaleFactor(String((inputs['upscale_model'] as { name?: string } | undefined)?.name ?? ''));
		const first = batch.frames[0]!;
		return { outputs: [await scaled(batch, first.width * factor, first.height * factor, 'lanczos3')] };
	},
	async ImageScaleBy(inputs) {
		const batch = images(inputs['image']);
		const first = batch.frames[0]!;
		const by = num(inputs['scale_by']);
		const width = Math.max(1, Math.round(first.width * by));
		const height = Math.max(1, Math.round(first.height * by));
		return { outputs: [await scaled(batch, width, height, KERNELS[String(inputs['upscale_method'])] ?? 'lanczos3')] };
	},
	async ImageFlip(inputs) {
		const batch = images(inputs['image']);
		return { outputs: [{ kind: 'image', frames: await Promise.all(batch.frames.map((f) => flipped(f, String(inputs['flip_method'])))) }] };
	},
	async InvertMask(inputs) {
		const mask = inputs['mask'] as { kind: 'mask'; frames: Array<{ width: number; height: number; data: Buffer }> };
		const frames = await Promise.all(mask.frames.map(async (f) => ({ ...f, data: await negated(f.data, f.width, f.height, 1) })));
		return { outputs: [{ kind: 'mask', frames }] };
	}
};
