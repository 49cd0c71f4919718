/**
 * Node definitions served by `GET /api/object_info`, in ComfyUI's real format: each input is
 * `[TYPE, {options}]` (or a list of choices, the older combo form), plus `output`, `output_name`,
 * `output_node`, `category`, `display_name`, and `api_node` for partner nodes.
 */

export type InputSpec = [string | string[], Record<string, unknown>?];

export interface NodeDefinition {
	input: { required: Record<string, InputSpec>; optional?: Record<string, InputSpec>; hidden?: Record<string, string> };
	input_order?: { required: string[]; optional?: string[] };
	output: string[];
	output_is_list: boolean[];
	output_name: string[];
	name: string;
	display_name: string;
	description: string;
	python_module: string;
	category: string;
	output_node: boolean;
	api_node?: boolean;
	deprecated?: boolean;
	experimental?: boolean;
}

export const CHECKPOINTS = ['sd_xl_base_1.0.safetensors', 'v1-5-pruned-emaonly.safetensors', 'flux1-schnell.safetensors'];
export const SAMPLERS = ['euler', 'euler_ancestral', 'heun', 'dpmpp_2m', 'dpmpp_2m_sde', 'ddim', 'uni_pc'];
export const SCHEDULERS = ['normal', 'karras', 'exponential', 'sgm_uniform', 'simple', 'beta'];
export const MAX_RESOLUTION = 16384;
export const MAX_SEED = 0xffffffffffffffff;

function node(
	name: string,
	display_name: string,
	category: string,
	required: Record<string, InputSpec>,
	outputs: Array<[string, string]>,
	extra: Partial<NodeDefinition> = {}
): NodeDefinition {
	return {
		input: { required, ...(extra.input ?? {}) },
		input_order: { required: Object.keys(required) },
		output: outputs.map(([t]) => t),
		output_is_list: outputs.map(() => false),
		output_name: outputs.map(([, n]) => n),
		name,
		display_name,
		description: extra.description ?? '',
		python_module: extra.api_node ? 'comfy_api_nodes.nodes_runboard' : 'nodes',
		category,
		output_node: extra.output_node ?? false,
		...(extra.api_node ? { api_node: true } : {})
	};
}

/** `images` is the list of uploaded input names, so LoadImage's combo reflects uploads. */
export function nodeDefinitions(images: string[]): Record<string, NodeDefinition> {
	return {
		CheckpointLoaderSimple: node(
			'CheckpointLoaderSimple',
			'Load Checkpoint',
			'loaders',
			{ ckpt_name: [CHECKPOINTS, { tooltip: 'The name of the checkpoint (model) to load.' }] },
			[['MODEL', 'MODEL'], ['CLIP', 'CLIP'], ['VAE', 'VAE']]
		),
		CLIPTextEncode: node(
			'CLIPTextEncode',
			'CLIP Text Encode (Prompt)',
			'conditioning',
			{
				text: ['STRING', { multiline: true, dynamicPrompts: true, tooltip: 'The text to be encoded.' }],
				clip: ['CLIP', { tooltip: 'The CLIP model used for encoding the text.' }]
			},
			[['CONDITIONING', 'CONDITIONING']]
		),
		EmptyLatentImage: node(
			'EmptyLatentImage',
			'Empty Latent Image',
			'latent',
			{
				width: ['INT', { default: 512, min: 16, max: MAX_RESOLUTION, step: 8 }],
				height: ['INT', { default: 512, min: 16, max: MAX_RESOLUTION, step: 8 }],
				batch_size: ['INT', { default: 1, min: 1, max: 4096 }]
			},
			[['LATENT', 'LATENT']]
		),
		KSampler: node(
			'KSampler',
			'KSampler',
			'sampling',
			{
				model: ['MODEL', {}],
				seed: ['INT', { default: 0, min: 0, max: MAX_SEED, control_after_generate: true }],
				steps: ['INT', { default: 20, min: 1, max: 10000 }],
				cfg: ['FLOAT', { default: 8.0, min: 0.0, max: 100.0, step: 0.1, round: 0.01 }],
				sampler_name: ['COMBO', { options: SAMPLERS }],
				scheduler: ['COMBO', { options: SCHEDULERS }],
				positive: ['CONDITIONING', {}],
				negative: ['CONDITIONING', {}],
				latent_image: ['LATENT', {}],
				denoise: ['FLOAT', { default: 1.0, min: 0.0, max: 1.0, step: 0.01 }]
			},
			[['LATENT', 'LATENT']]
		),
		VAEDecode: node('VAEDecode', 'VAE Decode', 'latent', { samples: ['LATENT', {}], vae: ['VAE', {}] }, [['IMAGE', 'IMAGE']]),
		LoadImage: node(
			'LoadImage',
			'Load Image',
			'image',
			{ image: [images, { image_upload: true }] },
			[['IMAGE', 'IMAGE'], ['MASK', 'MASK']]
		),
		SaveImage: node(
			'SaveImage',
			'Save Image',
			'image',
			{ images: ['IMAGE', { tooltip: 'The images to save.' }], filename_prefix: ['STRING', { default: 'ComfyUI' }] },
			[],
			{ output_node: true, description: 'Saves the input images to your output directory.' }
		)
	};
}
