import { describe, expect, it } from 'vitest';
import { MODEL_AXIS, type SweepAxis } from '../protocol/sweep';
import { modelCellRun, sharedBodies } from './model-cells';

const axis = (fieldId: string, path: Array<string | number>, values: SweepAxis['values']): SweepAxis => ({
	fieldId,
	path,
	label: fieldId,
	seed: false,
	values,
	pairedWithPrevious: false
});

describe('a model sweep cell', () => {
	const target = {
		modelId: 'lumen/flux-1',
		bodies: { 'lumen/flux-1': { prompt: 'a boat', guidance_scale: 3.5 }, 'vertex/imagen-3': { prompt: 'a boat', sampleCount: 1 } }
	};

	it('runs the axis of models’ value with that model’s body and the other axes written in', () => {
		const axes = [axis(MODEL_AXIS, [], ['lumen/flux-1', 'vertex/imagen-3']), axis('seed', ['seed'], [1, 2])];
		expect(modelCellRun(target, axes, ['vertex/imagen-3', 2])).toEqual({
			modelId: 'vertex/imagen-3',
			body: { prompt: 'a boat', sampleCount: 1, seed: 2 }
		});
	});

	it('runs the sweep’s own model when no axis varies the model, and leaves its stored body as it was', () => {
		const run = modelCellRun(target, [axis('guidance_scale', ['guidance_scale'], [2, 4])], [4]);
		expect(run).toEqual({ modelId: 'lumen/flux-1', body: { prompt: 'a boat', guidance_scale: 4 } });
		expect(target.bodies['lumen/flux-1'].guidance_scale).toBe(3.5);
	});
});

describe('the same input on several models', () => {
	it('fills the fields the models share once, from the form, and each model’s own fields from its own entry', () => {
		const bodies = sharedBodies({ prompt: 'a boat', negative_prompt: 'fog', guidance_scale: 3.5 }, [
			{ modelId: 'lumen/flux-1', fields: ['prompt', 'negative_prompt', 'guidance_scale'], own: {} },
			{ modelId: 'stratus/sd-3', fields: ['prompt', 'negative_prompt', 'cfg_scale'], own: { cfg_scale: 5 } },
			{ modelId: 'vertex/imagen-3', fields: ['prompt', 'sampleCount'], own: { sampleCount: 2 } }
		]);
		expect(bodies).toEqual({
			'lumen/flux-1': { prompt: 'a boat', negative_prompt: 'fog', guidance_scale: 3.5 },
			'stratus/sd-3': { prompt: 'a boat', negative_prompt: 'fog', cfg_scale: 5 },
			'vertex/imagen-3': { prompt: 'a boat', sampleCount: 2 }
		});
	});
});
