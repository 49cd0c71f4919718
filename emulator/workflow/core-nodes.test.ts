import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { coreNodeFacts } from '../../scripts/emulator-nodes';
import { CORE_NODES, FILE_LISTS } from './core-nodes.generated';
import { nodeDefinitions } from './nodes';
import { MODEL_SHELF } from './model-shelf';

/** A real ComfyUI 0.3.64's object_info, where this machine has one (RUNBOARD_OBJECT_INFO names another). */
const SAVED = process.env['RUNBOARD_OBJECT_INFO'] ?? '/work/notes/real/object_info.json';
const saved = existsSync(SAVED) ? (JSON.parse(readFileSync(SAVED, 'utf8')) as Record<string, Record<string, unknown>>) : undefined;

describe('the generated core node definitions', () => {
	it('hold ComfyUI 0.3.64 facts: inputs, defaults, bounds, step and round, options, outputs', () => {
		expect(Object.keys(CORE_NODES)).toHaveLength(382);
		expect(CORE_NODES['KSamplerAdvanced']).toMatchObject({
			display_name: 'KSampler (Advanced)',
			category: 'sampling',
			python_module: 'nodes',
			output: ['LATENT'],
			output_node: false,
			input: {
				required: {
					noise_seed: ['INT', { default: 0, min: 0, control_after_generate: true }],
					cfg: ['FLOAT', { default: 8, min: 0, max: 100, step: 0.1, round: 0.01 }],
					add_noise: [['enable', 'disable']],
					start_at_step: ['INT', { default: 0, min: 0, max: 10000 }]
				}
			}
		});
		expect(CORE_NODES['LatentUpscale']!.input.required['upscale_method']).toEqual([
			['nearest-exact', 'bilinear', 'area', 'bicubic', 'bislerp']
		]);
		expect(CORE_NODES['ControlNetApplyAdvanced']).toMatchObject({
			output: ['CONDITIONING', 'CONDITIONING'],
			input: { optional: { vae: ['VAE'] } }
		});
		expect(CORE_NODES['SaveVideo']).toMatchObject({ output_node: true, output: [], category: 'image/video' });
		expect(CORE_NODES['UpscaleModelLoader']!.input.required['model_name']).toEqual(['COMBO', { multiselect: false, options: [] }]);
	});

	it('carry no ComfyUI prose: no tooltip, no description', () => {
		const text = JSON.stringify(CORE_NODES);
		expect(text).not.toContain('"tooltip"');
		expect(text).not.toContain('"output_tooltips"');
		for (const definition of Object.values(CORE_NODES)) expect(definition.description).toBe('');
	});

	it.skipIf(!saved)('are exactly what the generator makes of the saved object_info, and quote none of its tooltips', () => {
		expect(JSON.parse(JSON.stringify(coreNodeFacts(saved! as never)))).toEqual(JSON.parse(JSON.stringify(CORE_NODES)));
		const tooltips = new Set<string>();
		const collect = (value: unknown): void => {
			if (Array.isArray(value)) value.forEach(collect);
			else if (value && typeof value === 'object')
				for (const [key, inner] of Object.entries(value)) {
					if (key === 'tooltip' && typeof inner === 'string' && inner.length > 20) tooltips.add(inner);
					else collect(inner);
				}
		};
		collect(saved);
		expect(tooltips.size).toBeGreaterThan(50);
		const text = JSON.stringify(CORE_NODES);
		expect([...tooltips].filter((t) => text.includes(JSON.stringify(t)))).toEqual([]);
	});

	it('leave every file list to the model shelf or the inputs, and the shelf fills it when served', () => {
		for (const [node, inputs] of Object.entries(FILE_LISTS)) {
			for (const [input, source] of Object.entries(inputs))
				if ('folder' in source) expect(MODEL_SHELF, `${node}.${input}`).toHaveProperty(source.folder);
		}
		const served = nodeDefinitions(['cat.png']);
		expect(served['CheckpointLoaderSimple']!.input.required['ckpt_name']![0]).toEqual(MODEL_SHELF['checkpoints']);
		expect(served['VAELoader']!.input.required['vae_name']![0]).toEqual([...MODEL_SHELF['vae']!, 'pixel_space']);
		expect(served['UpscaleModelLoader']!.input.required['model_name']).toEqual([
			'COMBO',
			{ multiselect: false, options: MODEL_SHELF['upscale_models'] }
		]);
		expect(served['LoadImage']!.input.required['image']).toEqual([['cat.png'], { image_upload: true }]);
		// The names this project's examples and tests run with stay on the shelf.
		expect(MODEL_SHELF['checkpoints']).toEqual(
			expect.arrayContaining(['v1-5-pruned-emaonly.safetensors', 'sd_xl_base_1.0.safetensors', 'flux1-schnell.safetensors'])
		);
		expect(Object.keys(served)).toHaveLength(382 + 2);
	});
});
