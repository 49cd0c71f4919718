/**
 * The emulator's model shelf: the model files a cloud service has pre-loaded, by ComfyUI model folder.
 * Loader nodes offer these names in `object_info` and validation refuses any other (`value_not_in_list`),
 * as a real server does for a file it lacks. Names are those today's popular workflows ask for (ComfyUI's
 * published workflow templates, e.g. Comfy-Org/workflow_templates templates/default.json at commit
 * 01d74046d1f6e25a1fea9d8d45f9ff56b46e3d25 and templates/01_get_started_text_to_image.json at commit
 * 02a493daa38e6453ab3b83ed70dfeb4a5062b614; the templates the #28 note lists, each at the commit it names;
 * every template of templates/*.json at commit b347680bc189bd5a6b782b2c8bc1265a46b5a345 that uses only
 * node types of ComfyUI 0.3.64), and ComfyUI's own examples), plus the names this project's
 * examples and tests use. Only names: the emulator runs no model.
 */

/** Where a node input's file list comes from: a shelf folder, or the server's input files of a kind. */
export type FileListSource = { folder: string; keep?: string[] } | { input: InputKind };
export type InputKind = 'image' | 'audio' | 'video' | '3d' | 'latent' | 'folder';

/** By folder, in the order ComfyUI's folder_paths.py declares them; each list sorted, as ComfyUI lists files. */
export const MODEL_SHELF: Readonly<Record<string, readonly string[]>> = {
	checkpoints: [
		'512-inpainting-ema.safetensors',
		'DreamShaper_8_pruned.safetensors',
		'ace_step_v1_3.5b.safetensors',
		'architecturerealmix_v11.safetensors',
		'awpainting_v14.safetensors',
		'dreamshaper_8.safetensors',
		'flux1-dev-fp8.safetensors',
		'flux1-schnell-fp8.safetensors',
		'flux1-schnell.safetensors',
		'hunyuan3d-dit-v2-mv-turbo_fp16.safetensors',
		'hunyuan3d-dit-v2-mv_fp16.safetensors',
		'hunyuan3d-dit-v2_fp16.safetensors',
		'hunyuan_3d_v2.1.safetensors',
		'interiordesignsuperm_v2.safetensors',
		'japaneseStyleRealistic_v20.safetensors',
		'ltx-video-2b-v0.9.5.safetensors',
		'ltx-video-2b-v0.9.safetensors',
		'majicmixRealistic_v7.safetensors',
		'sd3.5_large_fp8_scaled.safetensors',
		'sd3.5_medium_incl_clips_t5xxlfp8scaled.safetensors',
		'sd_xl_base_1.0.safetensors',
		'sd_xl_refiner_1.0.safetensors',
		'sd_xl_turbo_1.0_fp16.safetensors',
		'stable-audio-open-1.0.safetensors',
		'stable_audio_open_1.0.safetensors',
		'stable_zero123.ckpt',
		'svd.safetensors',
		'svd_xt.safetensors',
		'v1-5-pruned-emaonly-fp16.safetensors',
		'v1-5-pruned-emaonly.safetensors',
		'v2-1_768-ema-pruned.safetensors'
	],
	configs: ['v1-inference.yaml', 'v1-inpainting-inference.yaml', 'v2-inference-v.yaml', 'v2-inference.yaml'],
	loras: [
		'MoXinV1.safetensors',
		'Qwen-Image-Edit-Lightning-4steps-V1.0-bf16.safetensors',
		'Qwen-Image-Lightning-4steps-V1.0.safetensors',
		'Wan21_CausVid_14B_T2V_lora_rank32.safetensors',
		'blindbox_v1_mix.safetensors',
		'epiNoiseoffset_v2.safetensors',
		'flux1-canny-dev-lora.safetensors',
		'flux1-depth-dev-lora.safetensors',
		'lcm_lora_sdxl.safetensors',
		'lightx2v_I2V_14B_480p_cfg_step_distill_rank64_bf16.safetensors',
		'pixel-art-xl.safetensors',
		'removal_timestep_alpha-2-1740.safetensors',
		'uso-flux1-dit-lora-v1.safetensors',
		'wan2.2_i2v_lightx2v_4steps_lora_v1_high_noise.safetensors',
		'wan2.2_i2v_lightx2v_4steps_lora_v1_low_noise.safetensors',
		'wan2.2_t2v_lightx2v_4steps_lora_v1.1_high_noise.safetensors',
		'wan2.2_t2v_lightx2v_4steps_lora_v1.1_low_noise.safetensors'
	],
	vae: [
		'ae.safetensors',
		'hunyuan_video_vae_bf16.safetensors',
		'mochi_vae.safetensors',
		'qwen_image_vae.safetensors',
		'sdxl_vae.safetensors',
		'vae-ft-mse-840000-ema-pruned.safetensors',
		'wan2.2_vae.safetensors',
		'wan_2.1_vae.safetensors'
	],
	// ComfyUI reads `clip` as a second path of `text_encoders` (folder_paths.py): one list for both.
	text_encoders: [
		'clip_g.safetensors',
		'clip_g_hidream.safetensors',
		'clip_l.safetensors',
		'clip_l_hidream.safetensors',
		'llama_3.1_8b_instruct_fp8_scaled.safetensors',
		'llava_llama3_fp8_scaled.safetensors',
		'qwen_2.5_vl_7b_fp8_scaled.safetensors',
		'qwen_2.5_vl_fp16.safetensors',
		'qwen_3_4b.safetensors',
		't5-base.safetensors',
		't5_base.safetensors',
		't5xxl_fp16.safetensors',
		't5xxl_fp8_e4m3fn.safetensors',
		't5xxl_fp8_e4m3fn_scaled.safetensors',
		'umt5_xxl_fp16.safetensors',
		'umt5_xxl_fp8_e4m3fn_scaled.safetensors'
	],
	// Likewise `unet` is a second path of `diffusion_models`.
	diffusion_models: [
		'Chroma1-HD-fp8_scaled_rev2.safetensors',
		'Chroma1-HD.safetensors',
		'Chroma1-Radiance-v0.1.safetensors',
		'Wan2_1-I2V-ATI-14B_fp8_e4m3fn.safetensors',
		'flux.1-fill-dev-OneReward-transformer_fp8.safetensors',
		'flux1-dev-kontext_fp8_scaled.safetensors',
		'flux1-dev.safetensors',
		'flux1-fill-dev.safetensors',
		'flux1-kontext-dev.safetensors',
		'flux1-krea-dev_fp8_scaled.safetensors',
		'flux1-schnell.safetensors',
		'hidream_e1_1_bf16.safetensors',
		'hidream_e1_full_bf16.safetensors',
		'hidream_i1_dev_fp8.safetensors',
		'hidream_i1_fast_fp8.safetensors',
		'hidream_i1_full_fp8.safetensors',
		'humo_17B_fp8_e4m3fn.safetensors',
		'hunyuan_video_t2v_720p_bf16.safetensors',
		'lotus-depth-d-v1-1.safetensors',
		'mochi_preview_bf16.safetensors',
		'omnigen2_fp16.safetensors',
		'qwen_image_edit_2509_fp8_e4m3fn.safetensors',
		'qwen_image_edit_fp8_e4m3fn.safetensors',
		'qwen_image_fp8_e4m3fn.safetensors',
		'wan2.1_flf2v_720p_14B_fp16.safetensors',
		'wan2.1_fun_camera_v1.1_1.3B_bf16.safetensors',
		'wan2.1_fun_camera_v1.1_14B_bf16.safetensors',
		'wan2.1_fun_inp_1.3B_bf16.safetensors',
		'wan2.1_i2v_480p_14B_fp16.safetensors',
		'wan2.1_t2v_1.3B_fp16.safetensors',
		'wan2.1_vace_14B_fp16.safetensors',
		'wan2.2_fun_camera_high_noise_14B_fp8_scaled.safetensors',
		'wan2.2_fun_camera_low_noise_14B_fp8_scaled.safetensors',
		'wan2.2_fun_control_5B_bf16.safetensors',
		'wan2.2_fun_control_high_noise_14B_fp8_scaled.safetensors',
		'wan2.2_fun_control_low_noise_14B_fp8_scaled.safetensors',
		'wan2.2_fun_inpaint_5B_bf16.safetensors',
		'wan2.2_fun_inpaint_high_noise_14B_fp8_scaled.safetensors',
		'wan2.2_fun_inpaint_low_noise_14B_fp8_scaled.safetensors',
		'wan2.2_i2v_high_noise_14B_fp8_scaled.safetensors',
		'wan2.2_i2v_low_noise_14B_fp8_scaled.safetensors',
		'wan2.2_s2v_14B_fp8_scaled.safetensors',
		'wan2.2_t2v_high_noise_14B_fp8_scaled.safetensors',
		'wan2.2_t2v_low_noise_14B_fp8_scaled.safetensors',
		'wan2.2_ti2v_5B_fp16.safetensors',
		'z_image_turbo_bf16.safetensors'
	],
	clip_vision: ['clip_vision_g.safetensors', 'clip_vision_h.safetensors', 'sigclip_vision_patch14_384.safetensors'],
	style_models: ['flux1-redux-dev.safetensors'],
	embeddings: ['easynegative.safetensors'],
	diffusers: [],
	vae_approx: [],
	controlnet: [
		'Qwen-Image-InstantX-ControlNet-Inpainting.safetensors',
		'control_v11f1p_sd15_depth_fp16.safetensors',
		'control_v11p_sd15_canny_fp16.safetensors',
		'control_v11p_sd15_openpose_fp16.safetensors',
		'control_v11p_sd15_scribble_fp16.safetensors',
		'controlnetT2IAdapter_t2iAdapterDepth.safetensors',
		'sd3.5_large_controlnet_blur.safetensors',
		'sd3.5_large_controlnet_canny.safetensors',
		'sd3.5_large_controlnet_depth.safetensors'
	],
	gligen: ['gligen_sd14_textbox_pruned.safetensors'],
	upscale_models: ['4x-UltraSharp.pth', 'RealESRGAN_x2.pth', 'RealESRGAN_x4plus.pth', 'RealESRGAN_x4plus.safetensors'],
	hypernetworks: [],
	photomaker: ['photomaker-v1.bin'],
	model_patches: ['uso-flux1-projector-v1.safetensors'],
	audio_encoders: ['wav2vec2_large_english_fp16.safetensors', 'whisper_large_v3_fp16.safetensors']
};

/** ComfyUI's folder aliases: a name in `clip` or `unet` is listed under the folder that reads it. */
const ALIASES: Record<string, string> = { clip: 'text_encoders', unet: 'diffusion_models' };

export function shelfFolder(folder: string): readonly string[] {
	return MODEL_SHELF[ALIASES[folder] ?? folder] ?? [];
}

/** The folders ComfyUI's `GET /models` names, in its order (`clip` and `unet` are read through their new names). */
export function shelfFolders(): string[] {
	return Object.keys(MODEL_SHELF);
}
