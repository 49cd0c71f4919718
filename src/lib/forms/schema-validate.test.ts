import { describe, expect, it } from 'vitest';
import { schemaToForm } from './schema-fields';
import { InputValidator, locToPath, placeErrors, toJsonSchema } from './schema-validate';
import { buildCatalog } from '../../../emulator/router/catalog';
import { buildSchemaDocument } from '../../../emulator/router/schemas/document';

function formOf(id: string) {
	const model = buildCatalog().find((m) => m.id === id)!;
	return schemaToForm(buildSchemaDocument(model).document);
}

describe('validation by interpretation', () => {
	it('reads OpenAPI 3.0 nullable and boolean exclusive bounds as 2020-12', () => {
		expect(toJsonSchema({ type: 'integer', nullable: true, minimum: 0, exclusiveMinimum: true, example: 3 })).toEqual({
			type: ['integer', 'null'],
			exclusiveMinimum: 0
		});
		expect(toJsonSchema({ enum: ['a', null], nullable: true, type: 'string', default: 'a' })).toEqual({
			enum: ['a', null],
			type: ['string', 'null'],
			default: 'a'
		});
	});

	it('places required, bound and variant errors at their fields in a 3.1 document with $ref and anyOf', () => {
		const form = formOf('lumen/flux-1-turbo');
		const v = new InputValidator(form.inputSchema!);
		expect(v.validate({ prompt: 'a lighthouse' })).toEqual([]);
		const errors = v.validate({ num_inference_steps: 99, image_size: { width: 1, height: 512 } });
		const placed = placeErrors(form.group.fields, { image_size: { width: 1, height: 512 } }, errors);
		expect(placed.byField['prompt']).toBe('Required.');
		expect(placed.byField['num_inference_steps']).toMatch(/50/);
		expect(placed.byField['image_size']).toBeDefined();
		expect(placed.unplaced).toEqual([]);
	});

	it('validates a 3.0 document (nullable, exclusiveMinimum: true) without refusing null', () => {
		const form = formOf('stratus/sd-3');
		const v = new InputValidator(form.inputSchema!);
		expect(v.validate({ prompt: 'x', negative_prompt: null, seed: null })).toEqual([]);
		expect(v.validate({ prompt: 'x', cfg_scale: 0 })).toMatchObject([{ path: ['cfg_scale'] }]);
	});

	it('puts a 422 loc at the array item field it points to', () => {
		const form = formOf('lumen/flux-1-lora');
		const values = { prompt: 'x', loras: [{ path: 'https://a/b.safetensors', scale: 9 }] };
		const placed = placeErrors(form.group.fields, values, [
			{ path: locToPath(['body', 'loras', 0, 'scale']), message: 'Input should be less than or equal to 4' }
		]);
		expect(placed.byField['loras.0.scale']).toBe('Input should be less than or equal to 4');
	});

	it('puts errors inside a free-form part on that part, and unknown places at the top', () => {
		const form = formOf('quill/quill-3');
		const values = { prompt: 'x', response_format: { type: 'json_schema', json_schema: {} } };
		const placed = placeErrors(form.group.fields, values, [
			{ path: ['response_format', 'json_schema', 'name'], message: 'Required.' },
			{ path: ['nowhere'], message: 'Extra inputs are not permitted' }
		]);
		expect(placed.byField['response_format.json_schema']).toBe('Required. (at name)');
		expect(placed.unplaced).toEqual(['nowhere: Extra inputs are not permitted']);
	});

	it('validates the largest schema of the catalog in well under a millisecond per call after the first', () => {
		const form = formOf('quill/quill-3');
		const v = new InputValidator(form.inputSchema!);
		const t0 = performance.now();
		for (let i = 0; i < 100; i++)
			v.validate({ prompt: 'x', history: [{ role: 'user', content: 'hi' }], response_format: { type: 'text' } });
		expect((performance.now() - t0) / 100).toBeLessThan(5);
	});
});
