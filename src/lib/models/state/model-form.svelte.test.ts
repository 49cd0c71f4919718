import { describe, expect, it, vi } from 'vitest';
import { ModelFormStore } from './model-form.svelte';

const document = {
	openapi: '3.1.0',
	'x-service-input-schema-authored': true,
	paths: {
		'/v2/models/a/b': {
			post: {
				requestBody: {
					content: {
						'application/json': {
							schema: {
								type: 'object',
								required: ['prompt'],
								properties: {
									prompt: { type: 'string', minLength: 1 },
									steps: { type: 'integer', minimum: 1, maximum: 50, default: 28 },
									seed: { type: 'integer', minimum: 0, maximum: 100, default: 7 }
								}
							}
						}
					}
				}
			}
		}
	},
	components: { schemas: {} }
};

const field = (form: ModelFormStore, name: string) => form.form!.group.fields.find((f) => f.path.at(-1) === name)!;

describe('the model form store', () => {
	it('starts from the schema’s defaults, or from the inputs used last with this model', () => {
		const form = new ModelFormStore();
		form.load(document, 'Model', null);
		expect(form.values).toEqual({ steps: 28, seed: 7 });
		form.load(document, 'Model', { prompt: 'a fox', steps: 12 });
		expect(form.values).toEqual({ prompt: 'a fox', steps: 12 });
		form.resetToDefaults();
		expect(form.values).toEqual({ steps: 28, seed: 7 });
	});

	it('keeps an edit, clears the error at that field and tells the page (which keeps the draft)', () => {
		const form = new ModelFormStore();
		const onEdit = vi.fn();
		form.onEdit = onEdit;
		form.load(document, 'Model', null);
		expect(form.validate()).toBe(false);
		expect(form.errorAt(['prompt'])).toBe('Write a prompt.');
		form.set(['prompt'], 'a fox');
		expect(form.errorAt(['prompt'])).toBeUndefined();
		expect(form.valueOf(field(form, 'prompt'))).toBe('a fox');
		expect(onEdit).toHaveBeenCalledTimes(1);
		expect(form.validate()).toBe(true);
		expect(form.body()).toEqual({ prompt: 'a fox', steps: 28, seed: 7 });
	});

	it('places a bound the browser checks at its field', () => {
		const form = new ModelFormStore();
		form.load(document, 'Model', { prompt: 'x', steps: 80 });
		expect(form.validate()).toBe(false);
		expect(form.errorAt(['steps'])).toMatch(/50/);
	});

	it('places a service 422 at the fields its locs name, and the rest apart', () => {
		const form = new ModelFormStore();
		form.load(document, 'Model', { prompt: 'x' });
		form.applyServiceErrors([
			{ loc: ['body', 'prompt'], msg: 'Too dull' },
			{ loc: ['body', 'unknown_field'], msg: 'Extra inputs are not permitted' }
		]);
		expect(form.errorAt(['prompt'])).toBe('Too dull');
		expect(form.unplaced).toEqual([expect.stringContaining('Extra inputs are not permitted')]);
	});

	it.each([
		['fixed', 7, 7],
		['increment', 7, 8]
	] as const)('moves a %s seed from %i to %i after a run', (mode, before, after) => {
		const form = new ModelFormStore();
		form.load(document, 'Model', { prompt: 'x', seed: before });
		const seed = field(form, 'seed');
		form.setSeedMode(seed.id, mode);
		expect(form.prepareSeeds()).toEqual({ [seed.id]: before });
		form.advanceSeeds();
		expect(form.valueOf(seed)).toBe(after);
	});

	it('gives a randomized seed a new value within its bounds before a run, and sends that value', () => {
		const form = new ModelFormStore();
		form.load(document, 'Model', { prompt: 'x', seed: 7 });
		const seed = field(form, 'seed');
		form.setSeedMode(seed.id, 'randomize');
		const used = form.prepareSeeds()[seed.id]!;
		expect(used).toBeGreaterThanOrEqual(0);
		expect(used).toBeLessThanOrEqual(100);
		expect(form.body()).toMatchObject({ seed: used });
	});
});
