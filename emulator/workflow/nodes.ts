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
		input: { ...(extra.input ?? {}), required },
		input_order: {
			required: Object.keys(required),
			...(extra.input?.optional ? { optional: Object.keys(extra.input.optional) } : {})
		},
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

export const UPSCALE_METHODS = ['nearest-exact', 'bilinear', 'area', 'bicubic', 'lanczos'];
export const ASPECT_RATIOS = ['1:1', '16:9', '9:16', '3:2', '2:3', '5:4', '4:5', '21:9', '9:21'];
export const STYLE_PRESETS = ['None', 'photographic', 'digital-art', 'cinematic', 'anime', 'pixel-art'];
const PARTNER_HIDDEN = { auth_token_comfy_org: 'AUTH_TOKEN_COMFY_ORG', api_key_comfy_org: 'API_KEY_COMFY_ORG', unique_id: 'UNIQUE_ID' };

const int = (def: number, min: number, max: number, more: Record<string, unknown> = {}): InputSpec => [
	'INT',
	{ default: def, min, max, step: 1, ...more }
];
const image = (tooltip?: string): InputSpec => ['IMAGE', tooltip ? { tooltip } : {}];

/** `images` is the list of uploaded input names, so LoadImage's combo reflects uploads. */
export function nodeDefinitions(images: string[]): Record<string, NodeDefinition> {
	return {
		CheckpointLoaderSimple: node(
			'CheckpointLoaderSimple',
			'Load Checkpoint',
			'loaders',
			{ ckpt_name: [CHECKPOINTS, { tooltip: 'The name of the checkpoint (model) to load.' }] },
			[
				['MODEL', 'MODEL'],
				['CLIP', 'CLIP'],
				['VAE', 'VAE']
			]
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
		LoadImage: node('LoadImage', 'Load Image', 'image', { image: [images, { image_upload: true }] }, [
			['IMAGE', 'IMAGE'],
			['MASK', 'MASK']
		]),
		LoadImageMask: node(
			'LoadImageMask',
			'Load Image (as Mask)',
			'mask',
			{ image: [images, { image_upload: true }], channel: [['alpha', 'red', 'green', 'blue'], {}] },
			[['MASK', 'MASK']]
		),
		SaveImage: node(
			'SaveImage',
			'Save Image',
			'image',
			{ images: image('The images to save.'), filename_prefix: ['STRING', { default: 'ComfyUI' }] },
			[],
			{ output_node: true, description: 'Saves the input images to your output directory.' }
		),
		PreviewImage: node('PreviewImage', 'Preview Image', 'image', { images: image() }, [], {
			output_node: true,
			description: 'Saves the input images to a temporary folder.'
		}),
		// ComfyUI's comfy_extras/nodes_preview_any.py: any value shown as text (`text` in executed and history).
		PreviewAny: node('PreviewAny', 'Preview Any', 'utils', { source: ['*', {}] }, [], { output_node: true }),
		ImageInvert: node('ImageInvert', 'Invert Image', 'image', { image: image() }, [['IMAGE', 'IMAGE']]),
		ImageScale: node(
			'ImageScale',
			'Upscale Image',
			'image/upscaling',
			{
				image: image(),
				upscale_method: [UPSCALE_METHODS, {}],
				width: int(512, 0, MAX_RESOLUTION),
				height: int(512, 0, MAX_RESOLUTION),
				crop: [['disabled', 'center'], {}]
			},
			[['IMAGE', 'IMAGE']]
		),
		ImageBlur: node(
			'ImageBlur',
			'Image Blur',
			'image/postprocessing',
			{
				image: image(),
				blur_radius: int(1, 1, 31),
				sigma: ['FLOAT', { default: 1.0, min: 0.1, max: 10.0, step: 0.1 }]
			},
			[['IMAGE', 'IMAGE']]
		),
		ImageCrop: node(
			'ImageCrop',
			'Image Crop',
			'image/transform',
			{
				image: image(),
				width: int(512, 1, MAX_RESOLUTION),
				height: int(512, 1, MAX_RESOLUTION),
				x: int(0, 0, MAX_RESOLUTION),
				y: int(0, 0, MAX_RESOLUTION)
			},
			[['IMAGE', 'IMAGE']]
		),
		EmptyImage: node(
			'EmptyImage',
			'EmptyImage',
			'image',
			{
				width: int(512, 1, MAX_RESOLUTION),
				height: int(512, 1, MAX_RESOLUTION),
				batch_size: int(1, 1, 4096),
				color: int(0, 0, 0xffffff, { display: 'color' })
			},
			[['IMAGE', 'IMAGE']]
		),
		SaveAnimatedWEBP: node(
			'SaveAnimatedWEBP',
			'SaveAnimatedWEBP',
			'image/animation',
			{
				images: image(),
				filename_prefix: ['STRING', { default: 'ComfyUI' }],
				fps: ['FLOAT', { default: 6.0, min: 0.01, max: 1000.0, step: 0.01 }],
				lossless: ['BOOLEAN', { default: true }],
				quality: int(80, 0, 100),
				method: [['default', 'fastest', 'slowest'], {}]
			},
			[],
			{ output_node: true, description: 'Saves a batch of images as an animated WebP (the video output).' }
		),
		SaveAudio: node(
			'SaveAudio',
			'Save Audio',
			'audio',
			{ audio: ['AUDIO', {}], filename_prefix: ['STRING', { default: 'audio/ComfyUI' }] },
			[],
			{ output_node: true, description: 'Saves audio as a WAV file.' }
		),
		StabilityStableImageUltraNode: node(
			'StabilityStableImageUltraNode',
			'Stability AI Stable Image Ultra',
			'api node/image/Stability AI',
			{
				prompt: ['STRING', { multiline: true, default: '', tooltip: 'What you wish to see in the output image.' }],
				aspect_ratio: [ASPECT_RATIOS, { default: '1:1' }],
				style_preset: [STYLE_PRESETS, { default: 'None' }],
				seed: int(0, 0, 4294967294, { control_after_generate: true })
			},
			[['IMAGE', 'IMAGE']],
			{
				api_node: true,
				input: { required: {}, optional: { negative_prompt: ['STRING', { multiline: true, default: '' }] }, hidden: PARTNER_HIDDEN },
				description: 'Partner node: generates an image through an external service (billed in credits).'
			}
		),
		StabilityTextToAudio: node(
			'StabilityTextToAudio',
			'Stability AI Text To Audio',
			'api node/audio/Stability AI',
			{
				model: [['stable-audio-2.5'], {}],
				prompt: ['STRING', { multiline: true, default: '' }],
				duration: int(10, 1, 190, { tooltip: 'Controls the duration in seconds of the generated audio.' }),
				seed: int(0, 0, 4294967294, { control_after_generate: true }),
				steps: int(8, 4, 8)
			},
			[['AUDIO', 'AUDIO']],
			{
				api_node: true,
				input: { required: {}, hidden: PARTNER_HIDDEN },
				description: 'Partner node: generates audio through an external service (billed in credits).'
			}
		)
	};
}

export type NodeDefinitions = ReturnType<typeof nodeDefinitions>;
