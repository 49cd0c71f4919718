/**
 * Real media bytes for simulated results, a pure function of a seed: still images (PNG, JPEG, WebP)
 * made with sharp, WAV speech tones, and one short WebM video read from a committed fixture. Cached, since the same input must
 * give the same bytes and benchmarks repeat inputs.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { prng } from '../../prng';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export const IMAGE_MIME: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

const cache = new Map<string, Promise<Buffer>>();
const CACHE_LIMIT = 256;

function cached(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
	let hit = cache.get(key);
	if (!hit) {
		if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
		hit = make();
		cache.set(key, hit);
		hit.catch(() => cache.delete(key));
	}
	return hit;
}

/** RGB pixels: a diagonal gradient between two seeded colours with a seeded disc, shifted per frame. */
function pixels(seed: number, width: number, height: number, frame = 0): Buffer {
	const r = prng(seed);
	const c1 = [r() * 255, r() * 255, r() * 255];
	const c2 = [r() * 255, r() * 255, r() * 255];
	const cx = (r() * 0.6 + 0.2) * width + frame * width * 0.04;
	const cy = (r() * 0.6 + 0.2) * height;
	const radius = (r() * 0.2 + 0.1) * Math.min(width, height);
	const out = Buffer.alloc(width * height * 3);
	let i = 0;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const t = (x / width + y / height) / 2;
			const inDisc = (x - cx) ** 2 + (y - cy) ** 2 < radius * radius;
			for (let c = 0; c < 3; c++) out[i++] = inDisc ? 255 - c1[c]! : c1[c]! * (1 - t) + c2[c]! * t;
		}
	}
	return out;
}

/** Pixels are drawn at most this wide in JavaScript; sharp scales them up off the main thread. */
const DRAWN_MAX = 128;

export function renderImage(seed: number, width: number, height: number, format: ImageFormat): Promise<Buffer> {
	return cached(`img:${seed}:${width}x${height}:${format}`, async () => {
		const scale = Math.min(1, DRAWN_MAX / Math.max(width, height));
		const w = Math.max(1, Math.round(width * scale));
		const h = Math.max(1, Math.round(height * scale));
		let image = sharp(pixels(seed, w, h), { raw: { width: w, height: h, channels: 3 } });
		if (w !== width || h !== height) image = image.resize(width, height, { fit: 'fill', kernel: 'cubic' });
		if (format === 'jpeg') return image.jpeg({ quality: 85 }).toBuffer();
		if (format === 'webp') return image.webp({ quality: 85 }).toBuffer();
		return image.png().toBuffer();
	});
}

/**
 * A real two-second video (VP9 in WebM, 160x90, 12.9 KB) for the video models: made once by
 * `scripts/make-video-fixture.sh` with ffmpeg and committed, so the emulator never needs ffmpeg.
 */
export const VIDEO_MIME = 'video/webm';
export function renderVideo(): Promise<Buffer> {
	return cached('video:clip', () => readFile(new URL('./fixtures/clip.webm', import.meta.url)));
}

/** 16-bit mono PCM WAV: a seeded tone whose length follows the text. */
export function renderSpeech(seed: number, seconds: number, sampleRate = 16000): Promise<Buffer> {
	return cached(`wav:${seed}:${seconds}:${sampleRate}`, async () => {
		const samples = Math.round(seconds * sampleRate);
		const out = Buffer.alloc(44 + samples * 2);
		out.write('RIFF', 0, 'ascii');
		out.writeUInt32LE(36 + samples * 2, 4);
		out.write('WAVE', 8, 'ascii');
		out.write('fmt ', 12, 'ascii');
		out.writeUInt32LE(16, 16);
		out.writeUInt16LE(1, 20); // PCM
		out.writeUInt16LE(1, 22); // mono
		out.writeUInt32LE(sampleRate, 24);
		out.writeUInt32LE(sampleRate * 2, 28);
		out.writeUInt16LE(2, 32);
		out.writeUInt16LE(16, 34);
		out.write('data', 36, 'ascii');
		out.writeUInt32LE(samples * 2, 40);
		const freq = 180 + (seed % 200);
		for (let i = 0; i < samples; i++) {
			const envelope = Math.min(1, i / 800, (samples - i) / 800);
			out.writeInt16LE(Math.round(Math.sin((2 * Math.PI * freq * i) / sampleRate) * 12000 * envelope), 44 + i * 2);
		}
		return out;
	});
}
