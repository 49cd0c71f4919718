/**
 * Video and audio outputs with what ships inside npm packages: animated WebP through sharp (every
 * Chromium plays it in an <img>) and 16-bit PCM WAV written by hand (every browser's <audio>).
 */
import sharp from 'sharp';
import type { RawImage } from './pictures';
import { digestSeed } from './pictures';

/** ComfyUI's AUDIO type, reduced to one mono channel. */
export interface Audio {
	kind: 'audio';
	sampleRate: number;
	samples: Float32Array;
}

export async function animatedWebp(frames: RawImage[], fps: number, lossless: boolean, quality: number): Promise<Buffer> {
	const first = frames[0]!;
	const tall = Buffer.concat(frames.map((f) => f.data));
	const delay = Math.max(1, Math.round(1000 / fps));
	return sharp(tall, { raw: { width: first.width, height: first.height * frames.length, channels: 3, pageHeight: first.height } })
		.webp({ loop: 0, delay: frames.map(() => delay), lossless, quality })
		.toBuffer();
}

export function wav(audio: Audio): Buffer {
	const bytesPerSample = 2;
	const dataLength = audio.samples.length * bytesPerSample;
	const out = Buffer.alloc(44 + dataLength);
	out.write('RIFF', 0, 'ascii');
	out.writeUInt32LE(36 + dataLength, 4);
	out.write('WAVE', 8, 'ascii');
	out.write('fmt ', 12, 'ascii');
	out.writeUInt32LE(16, 16); // PCM fmt chunk size
	out.writeUInt16LE(1, 20); // PCM
	out.writeUInt16LE(1, 22); // mono
	out.writeUInt32LE(audio.sampleRate, 24);
	out.writeUInt32LE(audio.sampleRate * bytesPerSample, 28);
	out.writeUInt16LE(bytesPerSample, 32);
	out.writeUInt16LE(16, 34);
	out.write('data', 36, 'ascii');
	out.writeUInt32LE(dataLength, 40);
	for (let i = 0; i < audio.samples.length; i++) {
		const s = Math.max(-1, Math.min(1, audio.samples[i]!));
		out.writeInt16LE(Math.round(s * 32767), 44 + i * bytesPerSample);
	}
	return out;
}

/** A short chord whose notes come from the prompt and seed, with a gentle fade in and out. */
export function toneFromPrompt(text: string, seed: number, seconds: number, sampleRate = 22050): Audio {
	const digest = digestSeed(text, seed);
	const notes = [0, 1, 2].map((i) => 220 * 2 ** (((digest >>> (i * 8)) % 24) / 12));
	const samples = new Float32Array(Math.round(seconds * sampleRate));
	const fade = Math.min(samples.length / 2, sampleRate * 0.05);
	for (let i = 0; i < samples.length; i++) {
		const t = i / sampleRate;
		const envelope = Math.min(1, i / fade, (samples.length - i) / fade);
		samples[i] = (envelope * notes.reduce((sum, f) => sum + Math.sin(2 * Math.PI * f * t), 0)) / 4;
	}
	return { kind: 'audio', sampleRate, samples };
}
