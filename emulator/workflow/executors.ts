/**
 * What each node does when it runs. Inputs arrive validated and coerced (see validate.ts), links
 * already resolved to the linked node's output value. Image work is real (sharp); the model nodes
 * produce a deterministic procedural picture instead of running a model.
 */
import sharp from 'sharp';
import type { FileRef, NodeUiOutput } from '../../src/lib/workflows/protocol/workflow-api';
import {
	type ImageBatch,
	type MaskBatch,
	type RawImage,
	decodeImage,
	encodeJpeg,
	encodePng,
	negated,
	noisyStep,
	paintPicture,
	previewSize,
	proceduralPicture,
	rawInput,
	resize,
	solidImage
} from './pictures';
import { type Audio, animatedWebp, toneFromPrompt, wav } from './media';
import { addTextChunks, asciiJson } from './png-text';

/** A failure the service reports in `execution_error` with this `exception_type`. */
export class ExecutionFailure extends Error {
	constructor(
		readonly exceptionType: string,
		message: string
	) {
		super(message);
	}
}

/** Thrown at a checkpoint (between nodes, between sampler steps) once the job is interrupted. */
export class Interrupted extends Error {
	constructor() {
		super('Processing interrupted');
	}
}

export interface LoadedFile {
	bytes: Uint8Array;
	hash: string;
}

export interface NodeContext {
	nodeId: string;
	/** True when the account may not use partner nodes right now (no credits). */
	creditsExhausted: boolean;
	modelsUnavailable: boolean;
	/** Whether `extra_data.api_key_service_org` carried the account's key. */
	partnerKeyValid: boolean;
	prompt: unknown;
	/** `extra_data.extra_pnginfo` as sent (the editor sends `{workflow}`). */
	extraPngInfo: unknown;
	stepMs: number;
	sleep(ms: number): Promise<void>;
	/** Throws Interrupted when the job was interrupted. */
	checkpoint(): void;
	/** Sends `progress` (and a preview frame when given); a checkpoint too. */
	progress(value: number, max: number, preview?: () => Promise<Buffer>): Promise<void>;
	/** Sends a binary TEXT frame for this node. */
	text(message: string): void;
	/** Resolves an input-file name (upload, from-hash asset, or a signed storage URL). */
	loadInput(name: string): Promise<LoadedFile>;
	saveFile(type: 'output' | 'temp', prefix: string, extension: string, bytes: Buffer, mime: string): Promise<FileRef>;
}

export interface NodeResult {
	outputs: unknown[];
	ui?: NodeUiOutput;
}

export type Executor = (inputs: Record<string, unknown>, ctx: NodeContext) => Promise<NodeResult>;

export interface Latent {
	kind: 'latent';
	width: number;
	height: number;
	batch: number;
	pictures?: RawImage[];
}

/** More pixels than this in one node's output is a GPU out-of-memory in the emulator. */
export const PIXEL_BUDGET = 4096 * 4096;
const PREVIEW_MAX = 512;

export function guardMemory(width: number, height: number, batch: number): void {
	if (width * height * batch > PIXEL_BUDGET) {
		const gib = ((width * height * batch * 4 * 4) / 2 ** 30).toFixed(2);
		throw new ExecutionFailure(
			'OOMError',
			`Allocation on device: tried to allocate ${gib} GiB for ${batch}×${width}×${height}; GPU out of memory.`
		);
	}
}

const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));

function images(v: unknown): ImageBatch {
	const batch = v as ImageBatch;
	if (batch?.kind !== 'image') throw new ExecutionFailure('ValidationError', 'expected an IMAGE input');
	return batch;
}

async function mapFrames(batch: ImageBatch, f: (image: RawImage) => Promise<RawImage> | RawImage): Promise<ImageBatch> {
	return { kind: 'image', frames: await Promise.all(batch.frames.map(f)) };
}

async function loadPicture(ctx: NodeContext, name: string): Promise<{ image: RawImage; alpha: Buffer | undefined }> {
	const file = await ctx.loadInput(name);
	try {
		return await decodeImage(file.bytes);
	} catch {
		throw new ExecutionFailure('ValidationError', `Invalid image file: ${name} is not an image this service can read.`);
	}
}

export async function saveImages(ctx: NodeContext, batch: ImageBatch, type: 'output' | 'temp', prefix: string): Promise<NodeResult> {
	const refs: FileRef[] = [];
	for (const frame of batch.frames) {
		const entries: Array<[string, string]> = [['prompt', asciiJson(ctx.prompt)]];
		// As ComfyUI's SaveImage: every key of extra_pnginfo (the editor sends `workflow`) becomes a text chunk.
		const extra = ctx.extraPngInfo;
		if (typeof extra === 'object' && extra !== null && !Array.isArray(extra))
			for (const [key, value] of Object.entries(extra)) entries.push([key, asciiJson(value)]);
		const png = addTextChunks(await encodePng(frame), entries);
		refs.push(await ctx.saveFile(type, prefix, 'png', png, 'image/png'));
	}
	return { outputs: [], ui: { images: refs } };
}

function aspectSize(ratio: string): { width: number; height: number } {
	const [a, b] = ratio.split(':').map(Number) as [number, number];
	const height = Math.round(Math.sqrt((512 * 512 * b) / a) / 8) * 8;
	return { width: Math.round((height * a) / b / 8) * 8, height };
}

async function partnerCall(ctx: NodeContext, service: string): Promise<void> {
	if (!ctx.partnerKeyValid) throw new ExecutionFailure('Exception', 'Unauthorized: Please login first to use this node.');
	if (ctx.creditsExhausted) {
		throw new ExecutionFailure(
			'InsufficientFundsError',
			`Payment Required: your account has no credits left for ${service}. Add credits and run again.`
		);
	}
	for (let second = 0; second < 3; second++) {
		ctx.text(`Task in progress: ${second}s (${service})`);
		await ctx.sleep(ctx.stepMs * 2);
		ctx.checkpoint();
	}
	ctx.text(`Task completed (${service})`);
}

/**
 * What every sampler does here: `steps` progress events with a preview each, then the latent carries
 * the deterministic picture of its text and seed (batch item `i` uses `seed + i`).
 */
export async function sampleLatent(latent: Latent, text: string, seed: number, steps: number, ctx: NodeContext): Promise<Latent> {
	guardMemory(latent.width, latent.height, latent.batch);
	// ComfyUI's default (latent2rgb) preview has the latent's resolution: one pixel per 8×8 block.
	const size = previewSize(Math.max(8, Math.round(latent.width / 8)), Math.max(8, Math.round(latent.height / 8)), PREVIEW_MAX);
	const small = proceduralPicture(text, seed, size.width, size.height);
	// Painted (on sharp's threads when large) while the steps run.
	const painting = Promise.all(Array.from({ length: latent.batch }, (_, i) => paintPicture(text, seed + i, latent.width, latent.height)));
	try {
		for (let step = 1; step <= steps; step++) {
			await ctx.sleep(ctx.stepMs);
			await ctx.progress(step, steps, () => encodeJpeg(noisyStep(small, step, steps, seed), 75));
		}
	} finally {
		// An interrupted sampler still lets its painting end, so no sharp work outlives the job unseen.
		await painting.catch(() => undefined);
	}
	return { ...latent, pictures: await painting };
}

export const EXECUTORS: Record<string, Executor> = {
	async CheckpointLoaderSimple(inputs, ctx) {
		const name = str(inputs['ckpt_name']);
		if (ctx.modelsUnavailable)
			throw new ExecutionFailure('ModelDownloadError', `Model ${name} is not available: download failed (503 from model storage).`);
		return {
			outputs: [
				{ kind: 'model', name },
				{ kind: 'clip', name },
				{ kind: 'vae', name }
			]
		};
	},
	async PreviewAny(inputs) {
		const source = inputs['source'];
		const text =
			typeof source === 'string'
				? source
				: JSON.stringify(source, (_k, v: unknown) => (v instanceof Uint8Array ? `<${v.length} bytes>` : v));
		return { outputs: [], ui: { text: [text ?? 'None'] } };
	},
	async CLIPTextEncode(inputs) {
		return { outputs: [{ kind: 'conditioning', text: str(inputs['text']) }] };
	},
	async EmptyLatentImage(inputs) {
		const latent: Latent = { kind: 'latent', width: num(inputs['width']), height: num(inputs['height']), batch: num(inputs['batch_size']) };
		return { outputs: [latent] };
	},
	async KSampler(inputs, ctx) {
		const text = (inputs['positive'] as { text?: string })?.text ?? '';
		const latent = await sampleLatent(inputs['latent_image'] as Latent, text, num(inputs['seed']), num(inputs['steps']), ctx);
		return { outputs: [latent] };
	},
	async VAEDecode(inputs) {
		const latent = inputs['samples'] as Latent;
		const frames = latent.pictures ?? Array(latent.batch).fill(await solidImage(latent.width, latent.height, 0x7f7f7f));
		return { outputs: [{ kind: 'image', frames } satisfies ImageBatch] };
	},
	async LoadImage(inputs, ctx) {
		const { image, alpha } = await loadPicture(ctx, str(inputs['image']));
		// MASK = 1 - alpha, as ComfyUI's LoadImage; no alpha gives a 64×64 empty mask.
		const mask = alpha ? await negated(alpha, image.width, image.height, 1) : Buffer.alloc(64 * 64);
		const maskBatch: MaskBatch = {
			kind: 'mask',
			frames: [alpha ? { width: image.width, height: image.height, data: mask } : { width: 64, height: 64, data: mask }]
		};
		return { outputs: [{ kind: 'image', frames: [image] } satisfies ImageBatch, maskBatch] };
	},
	async LoadImageMask(inputs, ctx) {
		const file = await ctx.loadInput(str(inputs['image']));
		const channel = ({ alpha: 3, red: 0, green: 1, blue: 2 } as const)[str(inputs['channel']) as 'alpha'] ?? 3;
		try {
			const { data, info } = await sharp(file.bytes).ensureAlpha().extractChannel(channel).raw().toBuffer({ resolveWithObject: true });
			const values = channel === 3 ? await negated(data, info.width, info.height, 1) : data;
			return { outputs: [{ kind: 'mask', frames: [{ width: info.width, height: info.height, data: values }] } satisfies MaskBatch] };
		} catch {
			throw new ExecutionFailure('ValidationError', `Invalid image file: ${str(inputs['image'])} is not an image this service can read.`);
		}
	},
	async SaveImage(inputs, ctx) {
		return saveImages(ctx, images(inputs['images']), 'output', str(inputs['filename_prefix']) || 'ComfyUI');
	},
	async PreviewImage(inputs, ctx) {
		const suffix = Math.random().toString(36).slice(2, 7);
		return saveImages(ctx, images(inputs['images']), 'temp', `ComfyUI_temp_${suffix}`);
	},
	async ImageInvert(inputs) {
		return {
			outputs: [await mapFrames(images(inputs['image']), async (f) => ({ ...f, data: await negated(f.data, f.width, f.height, 3) }))]
		};
	},
	async ImageScale(inputs) {
		const batch = images(inputs['image']);
		const first = batch.frames[0]!;
		let width = num(inputs['width']);
		let height = num(inputs['height']);
		if (width === 0 && height === 0) return { outputs: [batch] };
		// ComfyUI keeps the aspect ratio when one side is 0.
		if (width === 0) width = Math.max(1, Math.round((first.width * height) / first.height));
		if (height === 0) height = Math.max(1, Math.round((first.height * width) / first.width));
		guardMemory(width, height, batch.frames.length);
		const kernel = ({ 'nearest-exact': 'nearest', bilinear: 'linear', area: 'mitchell', bicubic: 'cubic', lanczos: 'lanczos3' } as const)[
			str(inputs['upscale_method']) as 'lanczos'
		];
		const center = str(inputs['crop']) === 'center';
		return {
			outputs: [
				await mapFrames(batch, async (f) => {
					if (!center) return resize(f, width, height, kernel);
					const { data, info } = await sharp(f.data, rawInput(f))
						.resize(width, height, { fit: 'cover', position: 'centre', kernel })
						.raw()
						.toBuffer({ resolveWithObject: true });
					return { width: info.width, height: info.height, data };
				})
			]
		};
	},
	async ImageBlur(inputs) {
		const radius = num(inputs['blur_radius']);
		const sigma = num(inputs['sigma']);
		return {
			outputs: [
				await mapFrames(images(inputs['image']), async (f) => {
					// sharp's Gaussian takes sigma; a radius wider than 3 sigma changes nothing in ComfyUI either.
					const { data } = await sharp(f.data, rawInput(f))
						.blur(Math.max(0.3, Math.min(sigma, radius)))
						.raw()
						.toBuffer({ resolveWithObject: true });
					return { width: f.width, height: f.height, data };
				})
			]
		};
	},
	async ImageCrop(inputs) {
		return {
			outputs: [
				await mapFrames(images(inputs['image']), async (f) => {
					// ComfyUI clamps the crop box to the image.
					const x = Math.min(num(inputs['x']), f.width - 1);
					const y = Math.min(num(inputs['y']), f.height - 1);
					const width = Math.min(num(inputs['width']), f.width - x);
					const height = Math.min(num(inputs['height']), f.height - y);
					const { data, info } = await sharp(f.data, rawInput(f))
						.extract({ left: x, top: y, width, height })
						.raw()
						.toBuffer({ resolveWithObject: true });
					return { width: info.width, height: info.height, data };
				})
			]
		};
	},
	async EmptyImage(inputs) {
		const width = num(inputs['width']);
		const height = num(inputs['height']);
		const batch = num(inputs['batch_size']);
		guardMemory(width, height, batch);
		const frame = await solidImage(width, height, num(inputs['color']));
		return { outputs: [{ kind: 'image', frames: Array.from({ length: batch }, () => frame) } satisfies ImageBatch] };
	},
	async SaveAnimatedWEBP(inputs, ctx) {
		const batch = images(inputs['images']);
		const bytes = await animatedWebp(batch.frames, num(inputs['fps']), Boolean(inputs['lossless']), num(inputs['quality']));
		const ref = await ctx.saveFile('output', str(inputs['filename_prefix']) || 'ComfyUI', 'webp', bytes, 'image/webp');
		return { outputs: [], ui: { images: [ref], animated: [true] } };
	},
	async SaveAudio(inputs, ctx) {
		const audio = inputs['audio'] as Audio;
		const ref = await ctx.saveFile('output', str(inputs['filename_prefix']) || 'audio/ComfyUI', 'wav', wav(audio), 'audio/wav');
		return { outputs: [], ui: { audio: [ref] } };
	},
	async StabilityStableImageUltraNode(inputs, ctx) {
		await partnerCall(ctx, 'Stability AI');
		const { width, height } = aspectSize(str(inputs['aspect_ratio']));
		const picture = await paintPicture(`${str(inputs['prompt'])}|${str(inputs['style_preset'])}`, num(inputs['seed']), width, height);
		return { outputs: [{ kind: 'image', frames: [picture] } satisfies ImageBatch] };
	},
	async StabilityTextToAudio(inputs, ctx) {
		await partnerCall(ctx, 'Stability AI audio');
		return { outputs: [toneFromPrompt(str(inputs['prompt']), num(inputs['seed']), num(inputs['duration']))] };
	}
};
