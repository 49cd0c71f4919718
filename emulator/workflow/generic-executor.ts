/**
 * How a core node without an executor of its own runs: from its definition alone. Each output gets
 * a typed stand-in of its type: an input of the same type passes through (a LoRA gives the model it
 * was given), a LATENT knows its size and batch (from width/height/batch inputs, an image, or the
 * latent it came from), an IMAGE is a small real picture, primitives take the value they are given.
 * Samplers (KSamplerAdvanced, SamplerCustom, ...) run as KSampler does; output nodes write a small
 * real file of their kind. Cheap and deterministic, as every node of the emulator.
 */
import { readFile } from 'node:fs/promises';
import type { FileRef, NodeUiOutput } from '../../src/lib/workflows/protocol/workflow-api';
import type { InputSpec, NodeDefinition } from './nodes';
import { type Executor, type Latent, type NodeContext, type NodeResult, guardMemory, sampleLatent, saveImages } from './executors';
import { type ImageBatch, type MaskBatch, type RawImage, paintPicture, resize, solidImage } from './pictures';
import { type Audio, animatedWebp, toneFromPrompt, wav } from './media';

/** A model-side value the emulator never computes: its type, where it came from, and the prompt text and seed it carries. */
export interface StandIn {
	kind: string;
	node: string;
	text?: string;
	seed?: number;
	steps?: number;
	name?: string;
}

const num = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The classes that sample: their steps are progress with previews, as KSampler's. */
const SAMPLERS = new Set(['KSamplerAdvanced', 'SamplerCustom', 'SamplerCustomAdvanced']);

function specsOf(definition: NodeDefinition): Array<[string, InputSpec]> {
	return [...Object.entries(definition.input.required), ...Object.entries(definition.input.optional ?? {})];
}

function typeOf(spec: InputSpec): string {
	return Array.isArray(spec[0]) ? 'COMBO' : spec[0];
}

function isLatent(v: unknown): v is Latent {
	return (v as Latent | undefined)?.kind === 'latent';
}
function isImage(v: unknown): v is ImageBatch {
	return (v as ImageBatch | undefined)?.kind === 'image';
}

/** The prompt text a value carries: a conditioning's, a guider's, or a string's. */
function textIn(v: unknown): string | undefined {
	if (typeof v === 'string') return v;
	const text = (v as { text?: unknown } | undefined)?.text;
	return typeof text === 'string' ? text : undefined;
}

/** The `nth` linked input of `type` (ControlNetApplyAdvanced's second CONDITIONING is its negative), else the first. */
function nthOfType(definition: NodeDefinition, inputs: Record<string, unknown>, type: string, nth: number): unknown {
	const values = specsOf(definition)
		.filter(([name, spec]) => typeOf(spec) === type && inputs[name] !== undefined)
		.map(([name]) => inputs[name]);
	return values[nth] ?? values[0];
}

function firstOfType(definition: NodeDefinition, inputs: Record<string, unknown>, type: string): unknown {
	for (const [name, spec] of specsOf(definition)) if (typeOf(spec) === type && inputs[name] !== undefined) return inputs[name];
	return undefined;
}

/** The text a node hands on: its first text input (a prompt), else the first carried by a linked value. */
function carriedText(definition: NodeDefinition, inputs: Record<string, unknown>): string | undefined {
	for (const [name, spec] of specsOf(definition)) if (typeOf(spec) === 'STRING' && typeof inputs[name] === 'string') return inputs[name];
	for (const value of Object.values(inputs)) {
		const text = textIn(value);
		if (text !== undefined && typeof value !== 'string') return text;
	}
	return undefined;
}

function carriedSeed(inputs: Record<string, unknown>): number | undefined {
	for (const key of ['noise_seed', 'seed']) if (typeof inputs[key] === 'number') return inputs[key];
	for (const value of Object.values(inputs)) {
		const seed = (value as StandIn | undefined)?.seed;
		if (typeof seed === 'number') return seed;
	}
	return undefined;
}

function carriedSteps(inputs: Record<string, unknown>): number | undefined {
	if (typeof inputs['steps'] === 'number') return inputs['steps'];
	for (const value of Object.values(inputs)) {
		const steps = (value as StandIn | undefined)?.steps;
		if (typeof steps === 'number') return steps;
	}
	return undefined;
}

/** A latent's size: width/height (and batch) inputs, else a scale of the latent or image given, else 512². */
function latentFor(definition: NodeDefinition, inputs: Record<string, unknown>): Latent {
	const from = firstOfType(definition, inputs, 'LATENT');
	const image = firstOfType(definition, inputs, 'IMAGE');
	const base: Latent = isLatent(from)
		? { ...from }
		: isImage(image)
			? {
					kind: 'latent',
					width: image.frames[0]!.width,
					height: image.frames[0]!.height,
					batch: image.frames.length,
					pictures: image.frames
				}
			: { kind: 'latent', width: 512, height: 512, batch: 1 };
	let width = typeof inputs['width'] === 'number' ? inputs['width'] : base.width;
	let height = typeof inputs['height'] === 'number' ? inputs['height'] : base.height;
	const scale = typeof inputs['scale_by'] === 'number' ? inputs['scale_by'] : 1;
	width = Math.max(8, Math.round((width === 0 ? base.width : width) * scale));
	height = Math.max(8, Math.round((height === 0 ? base.height : height) * scale));
	const batch = typeof inputs['batch_size'] === 'number' ? inputs['batch_size'] : base.batch;
	guardMemory(width, height, batch);
	return { ...base, kind: 'latent', width, height, batch };
}

async function imageFor(definition: NodeDefinition, inputs: Record<string, unknown>, classType: string): Promise<ImageBatch> {
	const image = firstOfType(definition, inputs, 'IMAGE');
	if (isImage(image)) return image;
	const latent = firstOfType(definition, inputs, 'LATENT');
	if (isLatent(latent)) return decodeLatent(latent);
	const width = num(inputs['width'], 512) || 512;
	const height = num(inputs['height'], 512) || 512;
	guardMemory(width, height, 1);
	return {
		kind: 'image',
		frames: [await paintPicture(carriedText(definition, inputs) ?? classType, carriedSeed(inputs) ?? 0, width, height)]
	};
}

/** VAE decoding: the latent's pictures at its size (a latent scaled since it was sampled is scaled too). */
export async function decodeLatent(latent: Latent): Promise<ImageBatch> {
	guardMemory(latent.width, latent.height, latent.batch);
	const pictures = latent.pictures;
	if (!pictures || pictures.length === 0) {
		const grey = await solidImage(latent.width, latent.height, 0x7f7f7f);
		return { kind: 'image', frames: Array.from({ length: latent.batch }, () => grey) };
	}
	const frames = await Promise.all(
		Array.from({ length: latent.batch }, (_, i) => {
			const picture: RawImage = pictures[i % pictures.length]!;
			return picture.width === latent.width && picture.height === latent.height ? picture : resize(picture, latent.width, latent.height);
		})
	);
	return { kind: 'image', frames };
}

async function maskFor(definition: NodeDefinition, inputs: Record<string, unknown>): Promise<MaskBatch> {
	const mask = firstOfType(definition, inputs, 'MASK');
	if ((mask as MaskBatch | undefined)?.kind === 'mask') return mask as MaskBatch;
	const image = firstOfType(definition, inputs, 'IMAGE');
	const width = isImage(image) ? image.frames[0]!.width : num(inputs['width'], 64) || 64;
	const height = isImage(image) ? image.frames[0]!.height : num(inputs['height'], 64) || 64;
	guardMemory(width, height, 1);
	return { kind: 'mask', frames: [{ width, height, data: Buffer.alloc(width * height) }] };
}

function primitive(type: string, definition: NodeDefinition, inputs: Record<string, unknown>): unknown {
	if (typeof inputs['value'] !== 'undefined' && typeOf(definition.input.required['value'] ?? ['*']) === type) return inputs['value'];
	const same = firstOfType(definition, inputs, type);
	if (same !== undefined && !Array.isArray(same)) return same;
	if (type === 'INT') return 0;
	if (type === 'FLOAT') return 0;
	if (type === 'BOOLEAN') return false;
	return carriedText(definition, inputs) ?? '';
}

function audioFor(definition: NodeDefinition, inputs: Record<string, unknown>, classType: string): Audio {
	const audio = firstOfType(definition, inputs, 'AUDIO');
	if ((audio as Audio | undefined)?.kind === 'audio') return audio as Audio;
	const seconds = Math.min(30, Math.max(1, num(inputs['seconds'], num(inputs['duration'], 2))));
	return toneFromPrompt(carriedText(definition, inputs) ?? classType, carriedSeed(inputs) ?? 0, seconds);
}

/** One output value of `type`, a stand-in where the emulator computes nothing. */
async function outputValue(
	type: string,
	nth: number,
	definition: NodeDefinition,
	inputs: Record<string, unknown>,
	classType: string
): Promise<unknown> {
	switch (type) {
		case 'LATENT': {
			const latent = latentFor(definition, inputs);
			return nth === 0 ? latent : (nthOfType(definition, inputs, 'LATENT', nth) ?? latent);
		}
		case 'IMAGE':
			return imageFor(definition, inputs, classType);
		case 'MASK':
			return maskFor(definition, inputs);
		case 'INT':
		case 'FLOAT':
		case 'BOOLEAN':
		case 'STRING':
			return primitive(type, definition, inputs);
		case 'AUDIO':
			return audioFor(definition, inputs, classType);
		case 'VIDEO': {
			const video = firstOfType(definition, inputs, 'VIDEO');
			if (video !== undefined) return video;
			return { kind: 'video', frames: (await imageFor(definition, inputs, classType)).frames, fps: num(inputs['fps'], 8) || 8 };
		}
	}
	const same = nthOfType(definition, inputs, type, nth);
	if (same !== undefined) return same;
	const standIn: StandIn = { kind: type.toLowerCase(), node: classType };
	const text = carriedText(definition, inputs);
	const seed = carriedSeed(inputs);
	const steps = carriedSteps(inputs);
	const name = Object.entries(inputs).find(([k, v]) => k.endsWith('_name') && typeof v === 'string')?.[1];
	if (text !== undefined) standIn.text = text;
	if (seed !== undefined) standIn.seed = seed;
	if (steps !== undefined) standIn.steps = steps;
	if (typeof name === 'string') standIn.name = name;
	return standIn;
}

/** KSamplerAdvanced, SamplerCustom(Advanced): steps and seed from wherever that class keeps them. */
async function sample(
	definition: NodeDefinition,
	inputs: Record<string, unknown>,
	ctx: NodeContext,
	classType: string
): Promise<unknown[]> {
	const latent = latentFor(definition, inputs);
	const text = textIn(inputs['positive']) ?? textIn(inputs['guider']) ?? carriedText(definition, inputs) ?? '';
	const seed = carriedSeed(inputs) ?? 0;
	let steps = carriedSteps(inputs) ?? 20;
	if (classType === 'KSamplerAdvanced') {
		const end = Math.min(steps, num(inputs['end_at_step'], steps));
		steps = Math.max(1, end - num(inputs['start_at_step'], 0));
	}
	const sampled = await sampleLatent(latent, text, seed, Math.max(1, Math.min(steps, 10000)), ctx);
	return definition.output.map((type) => (type === 'LATENT' ? sampled : undefined));
}

const SAFETENSORS_EMPTY = (() => {
	const header = Buffer.from('{"__metadata__":{"format":"runboard-emulator"}}');
	const length = Buffer.alloc(8);
	length.writeBigUInt64LE(BigInt(header.length));
	return Buffer.concat([length, header]);
})();

/** The smallest valid binary glTF: one empty scene. */
function emptyGlb(): Buffer {
	let json = Buffer.from(JSON.stringify({ asset: { version: '2.0', generator: 'runboard-emulator' }, scenes: [{ nodes: [] }], scene: 0 }));
	if (json.length % 4) json = Buffer.concat([json, Buffer.alloc(4 - (json.length % 4), 0x20)]);
	const header = Buffer.alloc(20);
	header.write('glTF', 0, 'ascii');
	header.writeUInt32LE(2, 4);
	header.writeUInt32LE(12 + 8 + json.length, 8);
	header.writeUInt32LE(json.length, 12);
	header.write('JSON', 16, 'ascii');
	return Buffer.concat([header, json]);
}

let clipBytes: Promise<Buffer> | undefined;
/** The committed two-second WebM (decision 0038): the one real video the emulator hands out. */
function videoClip(): Promise<Buffer> {
	clipBytes ??= readFile(new URL('../router/provider/fixtures/clip.webm', import.meta.url)).catch((error: unknown) => {
		clipBytes = undefined;
		throw error;
	});
	return clipBytes;
}

const prefixOf = (inputs: Record<string, unknown>, fallback: string) => str(inputs['filename_prefix']) || fallback;

/** What an output node without an executor of its own writes, by the kind of its main input. */
async function output(
	definition: NodeDefinition,
	inputs: Record<string, unknown>,
	ctx: NodeContext,
	classType: string
): Promise<NodeResult> {
	const temp = classType.startsWith('Preview') || classType === 'MaskPreview';
	const type = temp ? 'temp' : 'output';
	const images = firstOfType(definition, inputs, 'IMAGE');
	const audio = firstOfType(definition, inputs, 'AUDIO');
	const video = firstOfType(definition, inputs, 'VIDEO');
	const mask = firstOfType(definition, inputs, 'MASK');
	const outputs = definition.output.map(() => undefined);
	if (video !== undefined || classType === 'SaveWEBM') {
		const ref = await ctx.saveFile(type, prefixOf(inputs, 'video/ComfyUI'), 'webm', await videoClip(), 'video/webm');
		// ComfyUI 0.3.64 lists a saved video under `images`, marked animated (observed: SaveVideo's mp4).
		return { outputs, ui: { images: [ref], animated: [true] } };
	}
	if (audio !== undefined) {
		const ref = await ctx.saveFile(type, prefixOf(inputs, 'audio/ComfyUI'), 'wav', wav(audio as Audio), 'audio/wav');
		return { outputs, ui: { audio: [ref] } };
	}
	if (isImage(images)) {
		if (classType === 'SaveAnimatedPNG') {
			const bytes = await animatedWebp(images.frames, num(inputs['fps'], 6) || 6, false, 80);
			const ref = await ctx.saveFile(type, prefixOf(inputs, 'ComfyUI'), 'webp', bytes, 'image/webp');
			return { outputs, ui: { images: [ref], animated: [true] } };
		}
		return { ...(await saveImages(ctx, images, type, prefixOf(inputs, temp ? 'ComfyUI_temp' : 'ComfyUI'))), outputs };
	}
	if ((mask as MaskBatch | undefined)?.kind === 'mask') {
		const frames = (mask as MaskBatch).frames.map((f) => ({ width: f.width, height: f.height, data: greyToRgb(f.data) }));
		return { ...(await saveImages(ctx, { kind: 'image', frames }, type, 'ComfyUI_temp_mask')), outputs };
	}
	if (firstOfType(definition, inputs, 'MESH') !== undefined || classType.includes('3D')) {
		const ref = await ctx.saveFile(type, prefixOf(inputs, 'mesh/ComfyUI'), 'glb', emptyGlb(), 'model/gltf-binary');
		return { outputs, ui: { '3d': [ref] } as NodeUiOutput };
	}
	if (firstOfType(definition, inputs, 'LATENT') !== undefined) {
		const ref = await ctx.saveFile(type, prefixOf(inputs, 'latents/ComfyUI'), 'latent', SAFETENSORS_EMPTY, 'application/octet-stream');
		return { outputs, ui: { latents: [ref] } as NodeUiOutput };
	}
	const svg = firstOfType(definition, inputs, 'SVG');
	if (svg !== undefined) {
		const bytes = Buffer.from(
			'<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#888"/></svg>'
		);
		const ref: FileRef = await ctx.saveFile(type, prefixOf(inputs, 'svg/ComfyUI'), 'svg', bytes, 'image/svg+xml');
		return { outputs, ui: { images: [ref] } };
	}
	// Model savers (CheckpointSave, LoraSave, ...) write into the server's model folders: nothing to show.
	return { outputs };
}

function greyToRgb(grey: Buffer): Buffer {
	const out = Buffer.alloc(grey.length * 3);
	for (let i = 0; i < grey.length; i++) out[i * 3] = out[i * 3 + 1] = out[i * 3 + 2] = grey[i]!;
	return out;
}

/** An executor for `classType` built from its definition. */
export function genericExecutor(classType: string, definition: NodeDefinition): Executor {
	return async (inputs, ctx) => {
		if (SAMPLERS.has(classType)) return { outputs: await sample(definition, inputs, ctx, classType) };
		if (definition.output_node) return output(definition, inputs, ctx, classType);
		const outputs: unknown[] = [];
		const seen = new Map<string, number>();
		for (const type of definition.output) {
			const nth = seen.get(type) ?? 0;
			seen.set(type, nth + 1);
			outputs.push(await outputValue(type, nth, definition, inputs, classType));
		}
		return { outputs };
	};
}
