/** The benchmark's 200-node graph of core nodes (its own module, so a test can run it too). */
import type { ApiPrompt } from '../../src/lib/workflows/protocol/workflow-api';

export const BLOCKS = 10;
export const STEPS_PER_BLOCK = 10;
export const PIXEL_CHAIN = 14;

const n = (class_type: string, inputs: Record<string, unknown>) => ({ class_type, inputs });

/** Ten blocks of 19 nodes, the four nodes they start from, the save and five last touches: 200 nodes. */
export function largeGraph(seed: number): ApiPrompt {
	const prompt: ApiPrompt = {
		'1': n('CheckpointLoaderSimple', { ckpt_name: 'v1-5-pruned-emaonly.safetensors' }),
		'2': n('CLIPTextEncode', { text: 'blurry', clip: ['1', 1] }),
		'3': n('EmptyLatentImage', { width: 64, height: 64, batch_size: 1 }),
		'4': n('CLIPTextEncode', { text: 'a harbour at dawn', clip: ['1', 1] })
	};
	let id = 5;
	let latent: [string, number] = ['3', 0];
	let image: [string, number] = ['3', 0];
	for (let b = 0; b < BLOCKS; b++) {
		const text = String(id++);
		prompt[text] = n('CLIPTextEncode', { text: `block ${b}, a harbour at dawn`, clip: ['1', 1] });
		const sampler = String(id++);
		prompt[sampler] = n('KSampler', {
			model: ['1', 0],
			positive: [text, 0],
			negative: ['2', 0],
			latent_image: latent,
			seed: seed + b,
			steps: STEPS_PER_BLOCK,
			cfg: 7,
			sampler_name: 'euler',
			scheduler: 'normal',
			denoise: b === 0 ? 1 : 0.5
		});
		const decode = String(id++);
		prompt[decode] = n('VAEDecode', { samples: [sampler, 0], vae: ['1', 2] });
		image = [decode, 0];
		for (let i = 0; i < PIXEL_CHAIN; i++) {
			const op = String(id++);
			prompt[op] =
				i % 2 === 0
					? n('ImageInvert', { image })
					: n('ImageFlip', { image, flip_method: i % 4 === 1 ? 'x-axis: vertically' : 'y-axis: horizontally' });
			image = [op, 0];
		}
		const preview = String(id++);
		prompt[preview] = n('PreviewImage', { images: image });
		const encode = String(id++);
		prompt[encode] = n('VAEEncode', { pixels: image, vae: ['1', 2] });
		latent = [encode, 0];
	}
	for (let i = 0; i < 5; i++) {
		const op = String(id++);
		prompt[op] = n('ImageInvert', { image });
		image = [op, 0];
	}
	prompt[String(id++)] = n('SaveImage', { images: image, filename_prefix: 'large-graph' });
	return prompt;
}
