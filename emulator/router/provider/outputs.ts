/**
 * The simulated provider's native output for a model and input: the same input always gives the
 * same output (only signed URLs differ). Assets go where the model's family sends them: copied to
 * the storage origin, left on the provider CDN, inlined as base64, or returned as the raw body.
 */
import { createHash } from 'node:crypto';
import type { RouterValidationErrorEntry } from '../../../src/lib/models/protocol/router-api';
import { COG_PROVIDER, type CatalogModel } from '../catalog';
import type { RouterContext } from '../context';
import { stableStringify } from '../stable-json';
import { IMAGE_MIME, renderImage, renderSpeech, renderVideo, VIDEO_MIME, type ImageFormat } from './media';

export interface NativeOutput {
	kind: 'output';
	mediaType: string;
	body: Buffer;
}

/** The provider refused the input itself (unauthored models): a 422 passed through. */
export interface ProviderRejection {
	kind: 'rejected';
	entries: RouterValidationErrorEntry[];
}

type Input = Record<string, unknown>;

const HOUR = 3600;
/** Lifetime of provider-CDN references: the provider's own expiry, shorter than the service's. */
export const PROVIDER_CDN_LIFETIME_SECONDS = 1 * HOUR;
export const GCS_URI_LIFETIME_SECONDS = 24 * HOUR;

export function seedOf(model: CatalogModel, input: Input): number {
	const given = input['seed'];
	if (typeof given === 'number' && Number.isInteger(given) && given >= 0) return given % 4294967296;
	return createHash('sha256').update(model.id).update(stableStringify(input)).digest().readUInt32BE(0);
}

const FAL_SIZES: Record<string, [number, number]> = {
	square_hd: [1024, 1024],
	square: [512, 512],
	portrait_4_3: [768, 1024],
	portrait_16_9: [576, 1024],
	landscape_4_3: [1024, 768],
	landscape_16_9: [1024, 576]
};

function ratioSize(ratio: unknown, base: number): [number, number] {
	const m = typeof ratio === 'string' ? /^(\d+):(\d+)$/.exec(ratio) : null;
	if (!m) return [base, base];
	const w = Number(m[1]);
	const h = Number(m[2]);
	return w >= h ? [base, Math.max(8, Math.round((base * h) / w / 8) * 8)] : [Math.max(8, Math.round((base * w) / h / 8) * 8), base];
}

function falSize(input: Input): [number, number] {
	const size = input['image_size'];
	if (typeof size === 'string') return FAL_SIZES[size] ?? [1024, 768];
	if (typeof size === 'object' && size !== null) {
		const { width, height } = size as { width?: unknown; height?: unknown };
		if (typeof width === 'number' && typeof height === 'number') return [width, height];
	}
	return [1024, 768];
}

function promptOf(input: Input): string {
	for (const key of ['prompt', 'text']) if (typeof input[key] === 'string') return input[key] as string;
	return '';
}

/**
 * Puts bytes where the model's family keeps result assets and returns the URL to hand out. Copying
 * is best effort: when it fails the entry keeps the provider's reference and the call still succeeds.
 */
async function place(ctx: RouterContext, model: CatalogModel, bytes: Buffer, mime: string, filename: string): Promise<string> {
	const blob = await ctx.storage.blobs.put(new Uint8Array(bytes), mime);
	if (ctx.router.faults.assetCopyFails) return ctx.cdn.signedUrl(blob.hash, filename, PROVIDER_CDN_LIFETIME_SECONDS);
	if (model.delivery === 'copied-24h') return ctx.storage.signedUrl(blob.hash, filename, 24 * HOUR);
	if (model.delivery === 'copied-12h') return ctx.storage.signedUrl(blob.hash, filename, 12 * HOUR);
	return ctx.cdn.signedUrl(blob.hash, filename, PROVIDER_CDN_LIFETIME_SECONDS);
}

function json(value: unknown): NativeOutput {
	return { kind: 'output', mediaType: 'application/json', body: Buffer.from(JSON.stringify(value)) };
}

async function falImages(ctx: RouterContext, model: CatalogModel, input: Input, seed: number): Promise<NativeOutput> {
	const [width, height] = falSize(input);
	const count = typeof input['num_images'] === 'number' ? (input['num_images'] as number) : 1;
	const format: ImageFormat = input['output_format'] === 'png' ? 'png' : 'jpeg';
	const images = [];
	for (let i = 0; i < count; i++) {
		const bytes = await renderImage(seed + i, width, height, format);
		const url = await place(ctx, model, bytes, IMAGE_MIME[format], `${model.model}-${seed}-${i}.${format === 'jpeg' ? 'jpg' : format}`);
		images.push({ url, width, height, content_type: IMAGE_MIME[format] });
	}
	const result: Input = {
		images,
		timings: { inference: 1.25 },
		seed,
		has_nsfw_concepts: images.map(() => false),
		prompt: promptOf(input)
	};
	if (model.extraAsset) {
		const draft = await renderImage(seed, Math.round(width / 4), Math.round(height / 4), 'webp');
		result['draft'] = {
			url: await place(ctx, model, draft, 'image/webp', `${model.model}-${seed}-draft.webp`),
			width: Math.round(width / 4),
			height: Math.round(height / 4),
			content_type: 'image/webp'
		};
	}
	return json(result);
}

async function falVideo(ctx: RouterContext, model: CatalogModel, input: Input, seed: number): Promise<NativeOutput> {
	const [width, height] = ratioSize(input['aspect_ratio'] ?? '16:9', 160);
	const clip = await renderVideo();
	const result: Input = {
		video: {
			url: await place(ctx, model, clip, VIDEO_MIME, `${model.model}-${seed}.webm`),
			content_type: VIDEO_MIME,
			file_name: `${model.model}-${seed}.webm`,
			file_size: clip.length
		}
	};
	if (model.extraAsset) {
		const still = await renderImage(seed, width, height, 'png');
		const key = model.provider === 'prism' ? 'thumbnail' : 'last_frame';
		result[key] = { url: await place(ctx, model, still, 'image/png', `${model.model}-${seed}-${key}.png`), content_type: 'image/png' };
	}
	return json(result);
}

async function veoVideo(ctx: RouterContext, model: CatalogModel, input: Input, seed: number): Promise<NativeOutput> {
	const seconds = typeof input['durationSeconds'] === 'number' ? (input['durationSeconds'] as number) : 8;
	const clip = await renderVideo();
	// Long clips are written to storage and linked; short ones come back inline.
	if (seconds >= 8) {
		const blob = await ctx.storage.blobs.put(new Uint8Array(clip), VIDEO_MIME);
		const gcsUri = ctx.storage.signedUrl(blob.hash, `${model.model}-${seed}.webm`, GCS_URI_LIFETIME_SECONDS);
		return json({ response: { videos: [{ gcsUri, mimeType: VIDEO_MIME }], raiMediaFilteredCount: 0 } });
	}
	return json({
		response: { videos: [{ bytesBase64Encoded: clip.toString('base64'), mimeType: VIDEO_MIME }], raiMediaFilteredCount: 0 }
	});
}

async function imagen(model: CatalogModel, input: Input, seed: number): Promise<NativeOutput> {
	const [width, height] = ratioSize(input['aspectRatio'] ?? '1:1', 256);
	const count = typeof input['sampleCount'] === 'number' ? (input['sampleCount'] as number) : 1;
	const predictions = [];
	for (let i = 0; i < count; i++)
		predictions.push({ bytesBase64Encoded: (await renderImage(seed + i, width, height, 'png')).toString('base64'), mimeType: 'image/png' });
	return json({ predictions, modelVersion: model.model });
}

async function rawImage(model: CatalogModel, input: Input, seed: number): Promise<NativeOutput> {
	let size: [number, number];
	if (model.kind === 'upscale') size = input['scale'] === 4 ? [512, 512] : [256, 256];
	else size = ratioSize(input['aspect_ratio'] ?? '1:1', 512);
	const format: ImageFormat = input['output_format'] === 'jpeg' ? 'jpeg' : input['output_format'] === 'webp' ? 'webp' : 'png';
	return { kind: 'output', mediaType: IMAGE_MIME[format], body: await renderImage(seed, size[0], size[1], format) };
}

async function speech(input: Input, seed: number): Promise<NativeOutput> {
	const text = typeof input['text'] === 'string' ? (input['text'] as string) : '';
	const speed = typeof input['speed'] === 'number' ? (input['speed'] as number) : 1;
	const seconds = Math.min(8, Math.max(0.5, (text.length * 0.06) / speed));
	return { kind: 'output', mediaType: 'audio/wav', body: await renderSpeech(seed, Math.round(seconds * 10) / 10) };
}

function completion(input: Input): NativeOutput {
	const prompt = promptOf(input);
	const format = (input['response_format'] as { type?: unknown } | undefined)?.type;
	const words = prompt.split(/\s+/).filter(Boolean);
	const usage = { input_tokens: words.length + 3, output_tokens: Math.min(64, words.length * 2 + 5) };
	if (format === 'json_object' || format === 'json_schema') {
		const parsed = {
			answer: `You asked about: ${words.slice(0, 8).join(' ')}`,
			items: words.slice(0, 3),
			confident: words.length % 2 === 0
		};
		return json({ output: JSON.stringify(parsed), json: parsed, usage });
	}
	return json({ output: `Here is a considered reply to "${prompt.slice(0, 200)}".`, usage });
}

/** A Cog language model's output: the tokens as they were streamed, to be concatenated. */
function tokenStream(input: Input): NativeOutput {
	const reply = `Here is a considered reply to "${promptOf(input).slice(0, 200)}".`;
	return json({ output: reply.match(/\s*\S+/g) ?? [] });
}

async function community(ctx: RouterContext, model: CatalogModel, input: Input, seed: number): Promise<NativeOutput | ProviderRejection> {
	// The provider validates what the service did not: it needs a prompt (pydantic v1 wording, passed through).
	if (typeof input['prompt'] !== 'string' || input['prompt'] === '') {
		return { kind: 'rejected', entries: [{ loc: ['body', 'prompt'], msg: 'field required', type: 'value_error.missing' }] };
	}
	if (model.model.startsWith('community-audio')) {
		const wav = await renderSpeech(seed, 1.5);
		return json({ audio: { url: await place(ctx, model, wav, 'audio/wav', `${model.model}-${seed}.wav`), content_type: 'audio/wav' } });
	}
	if (model.delivery === 'raw') return { kind: 'output', mediaType: 'image/png', body: await renderImage(seed, 64, 64, 'png') };
	const bytes = await renderImage(seed, 512, 512, 'png');
	return json({ images: [{ url: await place(ctx, model, bytes, 'image/png', `${model.model}-${seed}.png`) }], seed });
}

export async function produceOutput(ctx: RouterContext, model: CatalogModel, input: Input): Promise<NativeOutput | ProviderRejection> {
	const seed = seedOf(model, input);
	switch (model.kind) {
		case 'text-to-image':
		case 'image-to-image':
		case 'inpainting':
		case 'lora':
			if (model.delivery === 'raw') return rawImage(model, input, seed);
			if (model.delivery === 'inline') return imagen(model, input, seed);
			return falImages(ctx, model, input, seed);
		case 'upscale':
			return rawImage(model, input, seed);
		case 'video':
		case 'image-to-video':
			return model.delivery === 'inline-or-gcs' ? veoVideo(ctx, model, input, seed) : falVideo(ctx, model, input, seed);
		case 'tts':
			return speech(input, seed);
		case 'llm':
			return model.provider === COG_PROVIDER ? tokenStream(input) : completion(input);
		case 'unauthored':
			return community(ctx, model, input, seed);
	}
}
