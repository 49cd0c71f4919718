/**
 * Pixel data passed between nodes (ComfyUI's IMAGE and MASK), and the deterministic procedural
 * picture the model-less KSampler "samples": the same prompt text and seed always give the same
 * picture, different ones visibly differ.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { prng } from '../prng';

export type Kernel = 'nearest' | 'linear' | 'cubic' | 'mitchell' | 'lanczos2' | 'lanczos3';

/** One RGB image, 8 bits per channel, row-major. */
export interface RawImage {
	width: number;
	height: number;
	data: Buffer;
}

/** A batch of images: ComfyUI's IMAGE type. */
export interface ImageBatch {
	kind: 'image';
	frames: RawImage[];
}

/** ComfyUI's MASK type: one channel, 0 = keep, 255 = masked. */
export interface MaskBatch {
	kind: 'mask';
	frames: Array<{ width: number; height: number; data: Buffer }>;
}

export function solidImage(width: number, height: number, rgb: number): RawImage {
	const data = Buffer.alloc(width * height * 3);
	const r = (rgb >> 16) & 255;
	const g = (rgb >> 8) & 255;
	const b = rgb & 255;
	for (let i = 0; i < data.length; i += 3) {
		data[i] = r;
		data[i + 1] = g;
		data[i + 2] = b;
	}
	return { width, height, data };
}

export function digestSeed(...parts: Array<string | number>): number {
	return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32BE(0);
}

/**
 * Soft blobs of colour over a two-colour gradient, all chosen from the prompt and seed.
 * Computed at `width`×`height`; about 4 ms for 512×512.
 */
export function proceduralPicture(text: string, seed: number, width: number, height: number): RawImage {
	const random = prng(digestSeed(text, seed));
	const colour = () => [random() * 255, random() * 255, random() * 255] as const;
	const top = colour();
	const bottom = colour();
	const blobs = Array.from({ length: 3 + Math.floor(random() * 4) }, () => ({
		x: random() * width,
		y: random() * height,
		r2: (0.05 + random() * 0.3) ** 2 * width * height,
		c: colour()
	}));
	const data = Buffer.alloc(width * height * 3);
	let i = 0;
	for (let y = 0; y < height; y++) {
		const t = y / Math.max(1, height - 1);
		for (let x = 0; x < width; x++) {
			let r = top[0] * (1 - t) + bottom[0] * t;
			let g = top[1] * (1 - t) + bottom[1] * t;
			let b = top[2] * (1 - t) + bottom[2] * t;
			for (const blob of blobs) {
				const dx = x - blob.x;
				const dy = y - blob.y;
				const w = Math.exp(-(dx * dx + dy * dy) / blob.r2);
				r += (blob.c[0] - r) * w;
				g += (blob.c[1] - g) * w;
				b += (blob.c[2] - b) * w;
			}
			data[i++] = r;
			data[i++] = g;
			data[i++] = b;
		}
	}
	return { width, height, data };
}

/** What a sampler step "sees": the final picture blended with seeded noise, less noisy each step. */
export function noisyStep(picture: RawImage, step: number, steps: number, seed: number): RawImage {
	const random = prng(digestSeed('noise', seed, step));
	const clean = step / steps;
	const data = Buffer.alloc(picture.data.length);
	for (let i = 0; i < data.length; i++) data[i] = picture.data[i]! * clean + random() * 255 * (1 - clean);
	return { width: picture.width, height: picture.height, data };
}

export function rawInput(image: RawImage) {
	return { raw: { width: image.width, height: image.height, channels: 3 as const } };
}

export async function encodeJpeg(image: RawImage, quality = 80): Promise<Buffer> {
	return sharp(image.data, rawInput(image)).jpeg({ quality }).toBuffer();
}

export async function encodePng(image: RawImage): Promise<Buffer> {
	return sharp(image.data, rawInput(image)).png({ compressionLevel: 6 }).toBuffer();
}

/** Decodes any image sharp reads into RGB, and its alpha (if any) as a separate channel. */
export async function decodeImage(bytes: Uint8Array): Promise<{ image: RawImage; alpha: Buffer | undefined }> {
	const input = sharp(bytes, { failOn: 'error' });
	const meta = await input.metadata();
	const { data, info } = await input.clone().removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
	const image = { width: info.width, height: info.height, data };
	if (!meta.hasAlpha) return { image, alpha: undefined };
	const alpha = await input.clone().ensureAlpha().extractChannel(3).raw().toBuffer();
	return { image, alpha };
}

/** Scales the largest side down to `max` pixels: previews need not be full size. */
export function previewSize(width: number, height: number, max: number): { width: number; height: number } {
	const scale = Math.min(1, max / Math.max(width, height));
	return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export async function resize(image: RawImage, width: number, height: number, kernel: Kernel = 'lanczos3'): Promise<RawImage> {
	const { data, info } = await sharp(image.data, rawInput(image))
		.resize(width, height, { fit: 'fill', kernel })
		.raw()
		.toBuffer({ resolveWithObject: true });
	return { width: info.width, height: info.height, data };
}
