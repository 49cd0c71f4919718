/**
 * A month and more of someone's runs, made up but shaped like real ones: text-to-image workflows
 * with prompts of 8 to 30 words from a 3,000-word vocabulary, negative prompts, one of 24
 * checkpoints, up to two of 60 LoRAs, samplers, sizes and seeds, and one run in ten a model request.
 * Deterministic: the same `count` gives the same runs.
 */
import type { ModelRun } from '../../src/lib/core/protocol/model-run';
import type { AnyRun } from '../../src/lib/core/protocol/run-kernel';
import type { ApiPrompt, WorkflowRun } from '../../src/lib/core/protocol/workflow-run';
import { prng } from '../../emulator/prng';

const SYLLABLES = [
	'ka',
	'lo',
	'mi',
	'ren',
	'sa',
	'tor',
	'vel',
	'no',
	'qui',
	'bar',
	'shi',
	'dra',
	'fen',
	'gul',
	'hex',
	'ir',
	'jun',
	'mor',
	'pa',
	'ze'
];
const REAL_WORDS = [
	'zeppelin',
	'harbour',
	'dawn',
	'galaxy',
	'bottle',
	'portrait',
	'forest',
	'neon',
	'castle',
	'ocean',
	'lighthouse',
	'fog'
];

export function vocabulary(size: number, rand: () => number): string[] {
	const words = new Set<string>(REAL_WORDS);
	while (words.size < size) {
		const n = 2 + Math.floor(rand() * 3);
		let w = '';
		for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
		words.add(w);
	}
	return [...words];
}

const pick = <T>(items: readonly T[], rand: () => number): T => items[Math.floor(rand() * items.length)]!;

export function syntheticRuns(count: number, now = Date.UTC(2026, 10, 28)): AnyRun[] {
	return [...syntheticRunStream(count, now)];
}

/** The same runs one at a time, so a bench can make fresh copies without holding them all. */
export function* syntheticRunStream(count: number, now = Date.UTC(2026, 10, 28)): Generator<AnyRun> {
	const rand = prng(42);
	const words = vocabulary(3000, rand);
	const checkpoints = Array.from(
		{ length: 24 },
		(_, i) => `${pick(['sdxl', 'sd15', 'flux', 'pony'], rand)}_model_${i}_v${1 + (i % 3)}.safetensors`
	);
	const loras = Array.from({ length: 60 }, (_, i) => `${pick(words, rand)}_style_lora_${i}.safetensors`);
	const negatives = Array.from({ length: 40 }, () =>
		Array.from({ length: 3 + Math.floor(rand() * 6) }, () => pick(words, rand)).join(', ')
	);
	const samplers = ['euler', 'euler_ancestral', 'dpmpp_2m', 'dpmpp_2m_sde', 'ddim', 'uni_pc', 'lcm', 'heun'];
	const schedulers = ['normal', 'karras', 'exponential', 'sgm_uniform', 'simple'];
	const sizes = [512, 768, 832, 1024, 1216];
	// Spread over about 70 days, oldest first.
	const step = Math.max(1, Math.floor((70 * 86_400_000) / count));
	for (let i = 0; i < count; i++) {
		const createdAt = now - (count - i) * step;
		const prompt = Array.from({ length: 8 + Math.floor(rand() * 22) }, () => pick(words, rand)).join(' ');
		const seed = Math.floor(rand() * 2 ** 48);
		const status = rand() < 0.06 ? 'failed' : 'succeeded';
		const lora = rand() < 0.5 ? pick(loras, rand) : null;
		if (i % 10 === 9) {
			const run: ModelRun = {
				schemaVersion: 1,
				kind: 'model',
				id: `m-${i}`,
				profileId: 'router',
				modelId: pick(['lumen/flux-1', 'lumen/flux-pro', 'sonora/tts', 'vidi/motion'], rand),
				title: 'Model request',
				mode: 'queue',
				body: {
					prompt,
					negative_prompt: pick(negatives, rand),
					num_inference_steps: 10 + Math.floor(rand() * 40),
					...(lora ? { loras: [{ path: `https://models.example/${lora}`, scale: 0.8 }] } : {}),
					image_size: 'landscape_4_3'
				},
				idempotencyKey: `k-${i}`,
				keyCreatedAt: createdAt,
				status,
				attempts: 1,
				replayed: false,
				createdAt,
				finishedAt: createdAt + 9000,
				seeds: { seed }
			};
			yield run;
			continue;
		}
		const nodes: ApiPrompt = {
			'3': {
				class_type: 'KSampler',
				inputs: {
					seed,
					steps: 10 + Math.floor(rand() * 40),
					cfg: Math.round((3 + rand() * 9) * 10) / 10,
					sampler_name: pick(samplers, rand),
					scheduler: pick(schedulers, rand),
					denoise: 1,
					model: [lora ? '10' : '4', 0],
					positive: ['6', 0],
					negative: ['7', 0],
					latent_image: ['5', 0]
				}
			},
			'4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: pick(checkpoints, rand) } },
			'5': { class_type: 'EmptyLatentImage', inputs: { width: pick(sizes, rand), height: pick(sizes, rand), batch_size: 1 } },
			'6': { class_type: 'CLIPTextEncode', inputs: { text: prompt, clip: ['4', 1] } },
			'7': { class_type: 'CLIPTextEncode', inputs: { text: pick(negatives, rand), clip: ['4', 1] } },
			'8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
			'9': { class_type: 'SaveImage', inputs: { filename_prefix: 'ComfyUI', images: ['8', 0] } },
			...(lora
				? {
						'10': {
							class_type: 'LoraLoader',
							inputs: { lora_name: lora, strength_model: 0.8, strength_clip: 1, model: ['4', 0], clip: ['4', 1] }
						}
					}
				: {})
		};
		const run: WorkflowRun = {
			schemaVersion: 1,
			kind: 'workflow',
			id: `w-${i}`,
			profileId: i % 3 === 0 ? 'desk' : 'demo',
			title: 'Text to image',
			workflowId: 'text-to-image',
			promptId: `p-${i}`,
			prompt: nodes,
			seeds: { '3.seed': seed },
			partner: false,
			status,
			createdAt,
			startedAt: createdAt + 1000,
			finishedAt: createdAt + 9000,
			progress: { done: ['3', '4', '5', '6', '7', '8', '9'], total: 7, current: null, step: null, finishing: false },
			outputs:
				status === 'succeeded'
					? [{ nodeId: '9', kind: 'image', ref: { filename: `ComfyUI_${String(i).padStart(5, '0')}_.png`, subfolder: '', type: 'output' } }]
					: [],
			notifications: []
		};
		yield run;
	}
}
