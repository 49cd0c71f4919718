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

/** A picture of one colour, made on sharp's threads (a 4096² one would hold the event loop for a second in JS). */
export async function solidImage(width: number, height: number, rgb: number): Promise<RawImage> {
	const background = { r: (rgb >> 16) & 255, g: (rgb >> 8) & 255, b: rgb & 255 };
	const data = await sharp({ create: { width, height, channels: 3, background } })
		.raw()
		.toBuffer();
	return { width, height, data };
}

/** Every value turned into 255 minus itself (an image's colours, or a mask's 0..255), on sharp's threads. */
export async function negated(data: Buffer, width: number, height: number, channels: 1 | 3): Promise<Buffer> {
	// sharp hands a one-channel negate back as three channels (sRGB): a mask stays one byte a pixel here.
	if (channels === 1) return Buffer.from(data.map((v) => 255 - v));
	return sharp(data, { raw: { width, height, channels } }).negate({ alpha: false }).raw().toBuffer();
}

export function digestSeed(...parts: Array<string | number>): number {
	return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32BE(0);
}

/** The largest side `paintPicture` paints in JS; larger pictures are scaled up from this by sharp. */
export const PAINT_MAX = 512;

/**
 * `proceduralPicture` at any size without holding the event loop: up to PAINT_MAX a side it is
 * painted as is (a few ms); larger, it is painted at PAINT_MAX and scaled up on sharp's threads
 * (the picture is smooth, so nothing visible is lost, and a 4096² one costs milliseconds, not seconds).
 */
export async function paintPicture(text: string, seed: number, width: number, height: number): Promise<RawImage> {
	if (Math.max(width, height) <= PAINT_MAX) return proceduralPicture(text, seed, width, height);
	const small = previewSize(width, height, PAINT_MAX);
	return resize(proceduralPicture(text, seed, small.width, small.height), width, height, 'cubic');
}

/**
 * Soft blobs of colour over a two-colour gradient, all chosen from the prompt and seed.
 * Computed at `width`×`height` in JS, about 4 ms for 512×512: use `paintPicture` for large ones.
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
	// A Gaussian is separable: exp(-(dx²+dy²)/r²) = exp(-dx²/r²)·exp(-dy²/r²), so each blob needs one
	// row and one column of weights instead of an exp per pixel.
	const along = (size: number, centre: number, r2: number) =>
		Float64Array.from({ length: size }, (_, k) => Math.exp(-((k - centre) ** 2) / r2));
	const xs = blobs.map((blob) => along(width, blob.x, blob.r2));
	const ys = blobs.map((blob) => along(height, blob.y, blob.r2));
	const data = Buffer.alloc(width * height * 3);
	let i = 0;
	for (let y = 0; y < height; y++) {
		const t = y / Math.max(1, height - 1);
		for (let x = 0; x < width; x++) {
			let r = top[0] * (1 - t) + bottom[0] * t;
			let g = top[1] * (1 - t) + bottom[1] * t;
			let b = top[2] * (1 - t) + bottom[2] * t;
			for (let k = 0; k < blobs.length; k++) {
				const blob = blobs[k]!;
				const w = xs[k]![x]! * ys[k]![y]!;
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
