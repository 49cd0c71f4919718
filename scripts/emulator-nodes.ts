/**
 * `npm run emulator:nodes -- --from <object_info.json | http://host:port> [--label "ComfyUI 0.3.64"]`:
 * writes the emulator's core node definitions (emulator/workflow/core-nodes.generated.ts) from a stock
 * ComfyUI's `object_info`, so a newer ComfyUI is followed by running it again.
 *
 * Only facts are kept: names, input names and types, defaults, bounds, step and round, option lists,
 * outputs, output nodes, categories and display names. ComfyUI's prose (descriptions, tooltips) is
 * dropped. Partner (API) nodes and custom nodes are left out. Lists of model files and of input files
 * are emptied and named in FILE_LISTS instead: the emulator fills them from its own model shelf and
 * uploads, whatever the source server had installed.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

import type { FileListSource } from '../emulator/workflow/model-shelf';

/**
 * Which inputs list files, and from which folder: ComfyUI's `folder_paths.get_filename_list(<folder>)`
 * calls in nodes.py and comfy_extras (0.3.64). `keep` are the entries ComfyUI adds to the file list
 * (VAELoader's `pixel_space`, TrainLoraNode's `[None]`), kept after the files as ComfyUI orders them.
 */
export const FILE_INPUTS: Record<string, Record<string, FileListSource>> = {
	CheckpointLoaderSimple: { ckpt_name: { folder: 'checkpoints' } },
	CheckpointLoader: { config_name: { folder: 'configs' }, ckpt_name: { folder: 'checkpoints' } },
	unCLIPCheckpointLoader: { ckpt_name: { folder: 'checkpoints' } },
	ImageOnlyCheckpointLoader: { ckpt_name: { folder: 'checkpoints' } },
	CreateHookModelAsLora: { ckpt_name: { folder: 'checkpoints' } },
	CreateHookModelAsLoraModelOnly: { ckpt_name: { folder: 'checkpoints' } },
	DiffusersLoader: { model_path: { folder: 'diffusers' } },
	VAELoader: { vae_name: { folder: 'vae', keep: ['taesd', 'taesdxl', 'taesd3', 'taef1', 'pixel_space'] } },
	LoraLoader: { lora_name: { folder: 'loras' } },
	LoraLoaderModelOnly: { lora_name: { folder: 'loras' } },
	CreateHookLora: { lora_name: { folder: 'loras' } },
	CreateHookLoraModelOnly: { lora_name: { folder: 'loras' } },
	TrainLoraNode: { existing_lora: { folder: 'loras', keep: ['[None]'] } },
	CLIPLoader: { clip_name: { folder: 'text_encoders' } },
	DualCLIPLoader: { clip_name1: { folder: 'text_encoders' }, clip_name2: { folder: 'text_encoders' } },
	TripleCLIPLoader: {
		clip_name1: { folder: 'text_encoders' },
		clip_name2: { folder: 'text_encoders' },
		clip_name3: { folder: 'text_encoders' }
	},
	QuadrupleCLIPLoader: {
		clip_name1: { folder: 'text_encoders' },
		clip_name2: { folder: 'text_encoders' },
		clip_name3: { folder: 'text_encoders' },
		clip_name4: { folder: 'text_encoders' }
	},
	UNETLoader: { unet_name: { folder: 'diffusion_models' } },
	ControlNetLoader: { control_net_name: { folder: 'controlnet' } },
	DiffControlNetLoader: { control_net_name: { folder: 'controlnet' } },
	StyleModelLoader: { style_model_name: { folder: 'style_models' } },
	CLIPVisionLoader: { clip_name: { folder: 'clip_vision' } },
	GLIGENLoader: { gligen_name: { folder: 'gligen' } },
	UpscaleModelLoader: { model_name: { folder: 'upscale_models' } },
	HypernetworkLoader: { hypernetwork_name: { folder: 'hypernetworks' } },
	PhotoMakerLoader: { photomaker_model_name: { folder: 'photomaker' } },
	ModelPatchLoader: { name: { folder: 'model_patches' } },
	AudioEncoderLoader: { audio_encoder_name: { folder: 'audio_encoders' } },
	LoadImage: { image: { input: 'image' } },
	LoadImageMask: { image: { input: 'image' } },
	LoadAudio: { audio: { input: 'audio' } },
	LoadVideo: { file: { input: 'video' } },
	Load3D: { model_file: { input: '3d' } },
	Load3DAnimation: { model_file: { input: '3d' } },
	LoadLatent: { latent: { input: 'latent' } },
	LoadImageSetFromFolderNode: { folder: { input: 'folder' } },
	LoadImageTextSetFromFolderNode: { folder: { input: 'folder' } }
};

/** Option keys that are prose, not facts. */
const PROSE_KEYS = new Set(['tooltip', 'description', 'placeholder']);
/** Node keys that are prose. */
const NODE_PROSE_KEYS = new Set(['description', 'output_tooltips', 'search_aliases']);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type RawNode = Record<string, Json>;

export function isCoreNode(node: RawNode): boolean {
	const module = typeof node['python_module'] === 'string' ? node['python_module'] : '';
	if (node['api_node'] === true) return false;
	return module === 'nodes' || module.startsWith('comfy_extras.');
}

function factsOfOptions(options: Record<string, Json>): Record<string, Json> {
	const out: Record<string, Json> = {};
	for (const [key, value] of Object.entries(options)) if (!PROSE_KEYS.has(key)) out[key] = value;
	return out;
}

function factsOfInput(spec: Json, file: FileListSource | undefined): Json {
	if (!Array.isArray(spec)) return spec;
	const [type, options] = spec;
	const kept = (list: Json[]) => (file && 'folder' in file ? list.filter((v) => file.keep?.includes(String(v))) : file ? [] : list);
	const facts = options && typeof options === 'object' && !Array.isArray(options) ? factsOfOptions(options) : undefined;
	if (Array.isArray(type)) return facts ? [kept(type), facts] : [kept(type)];
	if (type === 'COMBO' && facts && Array.isArray(facts['options'])) facts['options'] = kept(facts['options']);
	return facts ? [type ?? null, facts] : [type ?? null];
}

/** One node's facts, with file lists emptied; throws on an empty list no FILE_INPUTS entry explains. */
export function factsOfNode(name: string, node: RawNode): RawNode {
	const out: RawNode = {};
	for (const [key, value] of Object.entries(node)) {
		if (NODE_PROSE_KEYS.has(key)) continue;
		if (key !== 'input' || typeof value !== 'object' || value === null || Array.isArray(value)) {
			out[key] = value;
			continue;
		}
		const input: Record<string, Json> = {};
		for (const [section, specs] of Object.entries(value)) {
			if (section === 'hidden' || typeof specs !== 'object' || specs === null || Array.isArray(specs)) {
				input[section] = specs;
				continue;
			}
			const facts: Record<string, Json> = {};
			for (const [inputName, spec] of Object.entries(specs)) {
				const file = FILE_INPUTS[name]?.[inputName];
				if (!file && isEmptyList(spec)) {
					throw new Error(`${name}.${inputName} lists no options: name its model folder or input kind in FILE_INPUTS.`);
				}
				facts[inputName] = factsOfInput(spec, file);
			}
			input[section] = facts;
		}
		out['input'] = input;
	}
	out['description'] = '';
	return out;
}

function isEmptyList(spec: Json): boolean {
	if (!Array.isArray(spec)) return false;
	const [type, options] = spec;
	if (Array.isArray(type)) return type.length === 0;
	if (type === 'COMBO' && options && typeof options === 'object' && !Array.isArray(options)) {
		return Array.isArray(options['options']) && options['options'].length === 0;
	}
	return false;
}

export function coreNodeFacts(objectInfo: Record<string, RawNode>): Record<string, RawNode> {
	const out: Record<string, RawNode> = {};
	for (const name of Object.keys(objectInfo).sort()) {
		const node = objectInfo[name]!;
		if (isCoreNode(node)) out[name] = factsOfNode(name, node);
	}
	return out;
}

async function readObjectInfo(from: string): Promise<Record<string, RawNode>> {
	if (/^https?:\/\//.test(from)) {
		const response = await fetch(new URL('/object_info', from));
		if (!response.ok) throw new Error(`${from}/object_info answered ${response.status}.`);
		return (await response.json()) as Record<string, RawNode>;
	}
	return JSON.parse(await readFile(from, 'utf8')) as Record<string, RawNode>;
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const value = (flag: string) => {
		const at = args.indexOf(flag);
		return at >= 0 ? args[at + 1] : undefined;
	};
	const from = value('--from');
	if (!from) {
		console.error('usage: npm run emulator:nodes -- --from <object_info.json | http://host:port> [--label "ComfyUI 0.3.64"]');
		process.exit(2);
	}
	const label = value('--label') ?? 'ComfyUI';
	const facts = coreNodeFacts(await readObjectInfo(from));
	const usedFileInputs = Object.fromEntries(Object.entries(FILE_INPUTS).filter(([name]) => name in facts));
	const target = fileURLToPath(new URL('../emulator/workflow/core-nodes.generated.ts', import.meta.url));
	const source = [
		`// GENERATED by scripts/emulator-nodes.ts from the object_info of ${label}: do not edit, run`,
		'// `npm run emulator:nodes -- --from <object_info.json | http://host:port>` again. Facts only (no',
		"// ComfyUI descriptions or tooltips); file lists are empty here and filled from FILE_LISTS's sources.",
		"import type { FileListSource } from './model-shelf';",
		"import type { NodeDefinition } from './node-definition';",
		'',
		`export const CORE_NODES_SOURCE = ${JSON.stringify(label)};`,
		'',
		`export const FILE_LISTS: Record<string, Record<string, FileListSource>> = ${JSON.stringify(usedFileInputs)};`,
		'',
		`export const CORE_NODES: Record<string, NodeDefinition> = ${JSON.stringify(facts)};`,
		''
	].join('\n');
	const config = (await resolveConfig(target)) ?? {};
	await writeFile(target, await format(source, { ...config, filepath: target }));
	console.log(`${Object.keys(facts).length} core node types written to ${target}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
