/**
 * Workflows of our own in API format, one per common family of ComfyUI graphs (written for this
 * project on the model of what those families use; no template's file is copied). Small sizes and
 * few steps, so each runs in well under a second on the emulator. `image` names the input picture a
 * graph loads: upload it first under that name.
 */
import type { ApiPrompt } from '../../src/lib/workflows/protocol/workflow-api';

export type OutputKind = 'images' | 'video' | 'audio';

export interface CoreGraph {
	name: string;
	prompt: ApiPrompt;
	/** The output node and the kind of file it writes. */
	output: { node: string; kind: OutputKind };
	/** Width and height of the saved image, where the family decides it. */
	size?: { width: number; height: number };
	image?: string;
}

export const INPUT_IMAGE = 'core-graph-input.png';

const n = (class_type: string, inputs: Record<string, unknown>) => ({ class_type, inputs });

/** Checkpoint, two prompts, an empty latent: what most image graphs start from (ids 1-4). */
function sd15Base(width = 64, height = 64): ApiPrompt {
	return {
		'1': n('CheckpointLoaderSimple', { ckpt_name: 'v1-5-pruned-emaonly.safetensors' }),
		'2': n('CLIPTextEncode', { text: 'a lighthouse at dusk, oil painting', clip: ['1', 1] }),
		'3': n('CLIPTextEncode', { text: 'blurry', clip: ['1', 1] }),
		'4': n('EmptyLatentImage', { width, height, batch_size: 1 })
	};
}

const ksampler = (model: [string, number], positive: [string, number], negative: [string, number], latent: [string, number], denoise = 1) =>
	n('KSampler', {
		model,
		positive,
		negative,
		latent_image: latent,
		seed: 7,
		steps: 4,
		cfg: 7,
		sampler_name: 'euler',
		scheduler: 'normal',
		denoise
	});

export const CORE_GRAPHS: CoreGraph[] = [
	{
		name: 'LoRA (LoraLoader)',
		prompt: {
			...sd15Base(),
			'2': n('CLIPTextEncode', { text: 'a lighthouse at dusk, oil painting', clip: ['10', 1] }),
			'3': n('CLIPTextEncode', { text: 'blurry', clip: ['10', 1] }),
			'10': n('LoraLoader', {
				model: ['1', 0],
				clip: ['1', 1],
				lora_name: 'epiNoiseoffset_v2.safetensors',
				strength_model: 0.8,
				strength_clip: 0.8
			}),
			'5': ksampler(['10', 0], ['2', 0], ['3', 0], ['4', 0]),
			'6': n('VAEDecode', { samples: ['5', 0], vae: ['1', 2] }),
			'7': n('SaveImage', { images: ['6', 0], filename_prefix: 'lora' })
		},
		output: { node: '7', kind: 'images' },
		size: { width: 64, height: 64 }
	},
	{
		name: 'image to image (VAEEncode)',
		image: INPUT_IMAGE,
		prompt: {
			...sd15Base(),
			'10': n('LoadImage', { image: INPUT_IMAGE }),
			'11': n('VAEEncode', { pixels: ['10', 0], vae: ['1', 2] }),
			'5': ksampler(['1', 0], ['2', 0], ['3', 0], ['11', 0], 0.6),
			'6': n('VAEDecode', { samples: ['5', 0], vae: ['1', 2] }),
			'7': n('SaveImage', { images: ['6', 0], filename_prefix: 'img2img' })
		},
		output: { node: '7', kind: 'images' },
		// The latent has the input picture's size (48x32).
		size: { width: 48, height: 32 }
	},
	{
		name: 'hires fix (LatentUpscale + KSamplerAdvanced)',
		prompt: {
			...sd15Base(),
			'5': ksampler(['1', 0], ['2', 0], ['3', 0], ['4', 0]),
			'10': n('LatentUpscale', { samples: ['5', 0], upscale_method: 'nearest-exact', width: 96, height: 96, crop: 'disabled' }),
			'11': n('KSamplerAdvanced', {
				model: ['1', 0],
				add_noise: 'enable',
				noise_seed: 7,
				steps: 6,
				cfg: 7,
				sampler_name: 'euler',
				scheduler: 'normal',
				positive: ['2', 0],
				negative: ['3', 0],
				latent_image: ['10', 0],
				start_at_step: 3,
				end_at_step: 10000,
				return_with_leftover_noise: 'disable'
			}),
			'6': n('VAEDecode', { samples: ['11', 0], vae: ['1', 2] }),
			'7': n('SaveImage', { images: ['6', 0], filename_prefix: 'hires' })
		},
		output: { node: '7', kind: 'images' },
		size: { width: 96, height: 96 }
	},
	{
		name: 'upscale model (ImageUpscaleWithModel)',
		prompt: {
			...sd15Base(),
			'5': ksampler(['1', 0], ['2', 0], ['3', 0], ['4', 0]),
			'6': n('VAEDecode', { samples: ['5', 0], vae: ['1', 2] }),
			'10': n('UpscaleModelLoader', { model_name: 'RealESRGAN_x2.pth' }),
			'11': n('ImageUpscaleWithModel', { upscale_model: ['10', 0], image: ['6', 0] }),
			'7': n('SaveImage', { images: ['11', 0], filename_prefix: 'upscaled' })
		},
		output: { node: '7', kind: 'images' },
		size: { width: 128, height: 128 }
	},
	{
		name: 'ControlNet (Canny + ControlNetApplyAdvanced)',
		image: INPUT_IMAGE,
		prompt: {
			...sd15Base(),
			'10': n('LoadImage', { image: INPUT_IMAGE }),
			'11': n('Canny', { image: ['10', 0], low_threshold: 0.4, high_threshold: 0.8 }),
			'12': n('ControlNetLoader', { control_net_name: 'control_v11p_sd15_canny_fp16.safetensors' }),
			'13': n('ControlNetApplyAdvanced', {
				positive: ['2', 0],
				negative: ['3', 0],
				control_net: ['12', 0],
				image: ['11', 0],
				strength: 1,
				start_percent: 0,
				end_percent: 1
			}),
			'5': ksampler(['1', 0], ['13', 0], ['13', 1], ['4', 0]),
			'6': n('VAEDecode', { samples: ['5', 0], vae: ['1', 2] }),
			'7': n('SaveImage', { images: ['6', 0], filename_prefix: 'controlnet' })
		},
		output: { node: '7', kind: 'images' },
		size: { width: 64, height: 64 }
	},
	{
		name: 'Flux-style custom sampling (SamplerCustomAdvanced)',
		prompt: {
			'1': n('UNETLoader', { unet_name: 'flux1-dev.safetensors', weight_dtype: 'default' }),
			'2': n('DualCLIPLoader', { clip_name1: 't5xxl_fp8_e4m3fn.safetensors', clip_name2: 'clip_l.safetensors', type: 'flux' }),
			'3': n('VAELoader', { vae_name: 'ae.safetensors' }),
			'4': n('CLIPTextEncode', { text: 'a red fox in snow', clip: ['2', 0] }),
			'5': n('FluxGuidance', { conditioning: ['4', 0], guidance: 3.5 }),
			'6': n('BasicGuider', { model: ['1', 0], conditioning: ['5', 0] }),
			'7': n('RandomNoise', { noise_seed: 11 }),
			'8': n('KSamplerSelect', { sampler_name: 'euler' }),
			'9': n('BasicScheduler', { model: ['1', 0], scheduler: 'simple', steps: 4, denoise: 1 }),
			'10': n('EmptySD3LatentImage', { width: 64, height: 48, batch_size: 1 }),
			'11': n('SamplerCustomAdvanced', { noise: ['7', 0], guider: ['6', 0], sampler: ['8', 0], sigmas: ['9', 0], latent_image: ['10', 0] }),
			'12': n('VAEDecode', { samples: ['11', 0], vae: ['3', 0] }),
			'13': n('SaveImage', { images: ['12', 0], filename_prefix: 'flux' })
		},
		output: { node: '13', kind: 'images' },
		size: { width: 64, height: 48 }
	},
	{
		name: 'text to audio (EmptyLatentAudio + VAEDecodeAudio)',
		prompt: {
			'1': n('CheckpointLoaderSimple', { ckpt_name: 'stable_audio_open_1.0.safetensors' }),
			'2': n('CLIPLoader', { clip_name: 't5_base.safetensors', type: 'stable_audio' }),
			'3': n('CLIPTextEncode', { text: 'rain on a tin roof', clip: ['2', 0] }),
			'4': n('CLIPTextEncode', { text: '', clip: ['2', 0] }),
			'5': n('EmptyLatentAudio', { seconds: 2, batch_size: 1 }),
			'6': ksampler(['1', 0], ['3', 0], ['4', 0], ['5', 0]),
			'7': n('VAEDecodeAudio', { samples: ['6', 0], vae: ['1', 2] }),
			'8': n('SaveAudio', { audio: ['7', 0], filename_prefix: 'audio/rain' })
		},
		output: { node: '8', kind: 'audio' },
		// An audio latent has no picture size to speak of: the default latent size stands in.
		size: undefined
	},
	{
		name: 'text to video (EmptyHunyuanLatentVideo + CreateVideo + SaveVideo)',
		prompt: {
			'1': n('UNETLoader', { unet_name: 'wan2.1_t2v_1.3B_fp16.safetensors', weight_dtype: 'default' }),
			'2': n('CLIPLoader', { clip_name: 'umt5_xxl_fp8_e4m3fn_scaled.safetensors', type: 'wan' }),
			'3': n('VAELoader', { vae_name: 'wan_2.1_vae.safetensors' }),
			'4': n('CLIPTextEncode', { text: 'waves at night', clip: ['2', 0] }),
			'5': n('CLIPTextEncode', { text: '', clip: ['2', 0] }),
			'6': n('EmptyHunyuanLatentVideo', { width: 64, height: 48, length: 9, batch_size: 1 }),
			'7': ksampler(['1', 0], ['4', 0], ['5', 0], ['6', 0]),
			'8': n('VAEDecode', { samples: ['7', 0], vae: ['3', 0] }),
			'9': n('CreateVideo', { images: ['8', 0], fps: 16 }),
			'10': n('SaveVideo', { video: ['9', 0], filename_prefix: 'video/waves', format: 'auto', codec: 'auto' })
		},
		output: { node: '10', kind: 'video' }
	},
	{
		name: 'inpainting (LoadImage mask + GrowMask + VAEEncodeForInpaint)',
		image: INPUT_IMAGE,
		prompt: {
			...sd15Base(),
			'1': n('CheckpointLoaderSimple', { ckpt_name: '512-inpainting-ema.safetensors' }),
			'10': n('LoadImage', { image: INPUT_IMAGE }),
			'11': n('GrowMask', { mask: ['10', 1], expand: 4, tapered_corners: true }),
			'12': n('VAEEncodeForInpaint', { pixels: ['10', 0], vae: ['1', 2], mask: ['11', 0], grow_mask_by: 6 }),
			'5': ksampler(['1', 0], ['2', 0], ['3', 0], ['12', 0]),
			'6': n('VAEDecode', { samples: ['5', 0], vae: ['1', 2] }),
			'7': n('SaveImage', { images: ['6', 0], filename_prefix: 'inpaint' })
		},
		output: { node: '7', kind: 'images' },
		size: { width: 48, height: 32 }
	},
	{
		name: 'outpainting (ImagePadForOutpaint + InpaintModelConditioning)',
		image: INPUT_IMAGE,
		prompt: {
			...sd15Base(),
			'10': n('LoadImage', { image: INPUT_IMAGE }),
			'11': n('ImagePadForOutpaint', { image: ['10', 0], left: 8, top: 0, right: 8, bottom: 0, feathering: 4 }),
			'12': n('InpaintModelConditioning', {
				positive: ['2', 0],
				negative: ['3', 0],
				vae: ['1', 2],
				pixels: ['11', 0],
				mask: ['11', 1],
				noise_mask: true
			}),
			'5': ksampler(['1', 0], ['12', 0], ['12', 1], ['12', 2]),
			'6': n('VAEDecode', { samples: ['5', 0], vae: ['1', 2] }),
			'7': n('SaveImage', { images: ['6', 0], filename_prefix: 'outpaint' })
		},
		output: { node: '7', kind: 'images' },
		size: { width: 64, height: 32 }
	},
	{
		name: 'single-file text encoder (UNETLoader + CLIPLoader + ModelSamplingAuraFlow + ConditioningZeroOut)',
		prompt: {
			'1': n('UNETLoader', { unet_name: 'z_image_turbo_bf16.safetensors', weight_dtype: 'default' }),
			'2': n('CLIPLoader', { clip_name: 'qwen_3_4b.safetensors', type: 'lumina2', device: 'default' }),
			'3': n('VAELoader', { vae_name: 'ae.safetensors' }),
			'4': n('ModelSamplingAuraFlow', { model: ['1', 0], shift: 3 }),
			'5': n('CLIPTextEncode', { text: 'a billboard on a rooftop', clip: ['2', 0] }),
			'6': n('ConditioningZeroOut', { conditioning: ['5', 0] }),
			'7': n('EmptySD3LatentImage', { width: 64, height: 64, batch_size: 1 }),
			'8': n('KSampler', {
				model: ['4', 0],
				positive: ['5', 0],
				negative: ['6', 0],
				latent_image: ['7', 0],
				seed: 3,
				steps: 4,
				cfg: 1,
				sampler_name: 'res_multistep',
				scheduler: 'simple',
				denoise: 1
			}),
			'9': n('VAEDecode', { samples: ['8', 0], vae: ['3', 0] }),
			'10': n('SaveImage', { images: ['9', 0], filename_prefix: 'single-encoder' })
		},
		output: { node: '10', kind: 'images' },
		size: { width: 64, height: 64 }
	}
];
