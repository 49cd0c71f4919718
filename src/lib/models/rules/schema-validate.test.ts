import { describe, expect, it } from 'vitest';
import { schemaToForm } from '../../fields/rules/schema-fields';
import { compileValidator, InputValidator, locToPath, placeErrors, prepareModelForm, toJsonSchema } from './schema-validate';
import { buildCatalog } from '../../../../emulator/router/catalog';
import { buildSchemaDocument } from '../../../../emulator/router/schemas/document';

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
		expect(placed.byField['prompt']).toBe('Write a prompt.');
		expect(placed.byField['num_inference_steps']).toBe('Use a whole number from 1 to 50.');
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

	// Its speed per call is bench/models-form.bench.ts's to measure; here, that one compiled validator serves every call.
	it('validates the largest schema of the catalog again and again with the validator compiled once', () => {
		const form = formOf('quill/quill-3');
		const v = new InputValidator(form.inputSchema!);
		const value = { prompt: 'x', history: [{ role: 'user', content: 'hi' }], response_format: { type: 'text' } };
		for (let i = 0; i < 100; i++) expect(v.validate(value)).toEqual([]);
		expect(v.validate({ ...value, prompt: 7 }).length).toBeGreaterThan(0);
	});
});

describe('a schema the validator cannot compile falls back to the free JSON editor with a note', () => {
	const docWith = (schemas: Record<string, unknown>) =>
		JSON.parse(
			JSON.stringify({
				paths: {
					'/run': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Input' } } } } } }
				},
				components: { schemas }
			})
		);
	const input = (extra: Record<string, unknown>) => ({ type: 'object', properties: { prompt: { type: 'string' } }, ...extra });

	it.each<[string, Record<string, unknown>, RegExp]>([
		['`required` that is a string', { Input: input({ required: 'prompt' }) }, /"required" at .* is not a list of names/],
		['`required` that is a number', { Input: input({ required: 3 }) }, /"required"/],
		[
			'`required` inside a property',
			{ Input: input({ properties: { a: { type: 'object', required: { x: 1 } } } }) },
			/"required" at .*\/properties\/a is not a list/
		],
		['an `enum` that is not a list', { Input: input({ properties: { a: { enum: 'x' } } }) }, /"enum" at .* is not a list/],
		['an `enum` that is an object', { Input: input({ properties: { a: { type: 'string', enum: { a: 1 } } } }) }, /"enum"/],
		['a self-referencing $ref', { Input: { $ref: '#/components/schemas/Input' } }, /refers only to itself/],
		[
			'a $ref cycle through two names',
			{
				Input: input({ properties: { a: { $ref: '#/components/schemas/A' } } }),
				A: { $ref: '#/components/schemas/B' },
				B: { $ref: '#/components/schemas/A' }
			},
			/refers only to itself/
		],
		[
			'an invalid pattern',
			{ Input: input({ properties: { a: { type: 'string', pattern: '([a-z' } } }) },
			/"pattern" at .* not a valid regular expression/
		],
		['a pattern that is not text', { Input: input({ properties: { a: { type: 'string', pattern: 5 } } }) }, /"pattern"/],
		['an unresolvable $ref', { Input: input({ properties: { a: { $ref: '#/components/schemas/Missing' } } }) }, /cannot be resolved/],
		['a remote $ref', { Input: input({ properties: { a: { $ref: 'https://example.com/a.json' } } }) }, /cannot be resolved/],
		[
			'a $ref into Object.prototype',
			{ Input: input({ properties: { a: { $ref: '#/components/schemas/constructor' } } }) },
			/cannot be resolved/
		]
	])('%s', (_what, schemas, reason) => {
		const { form, validator } = prepareModelForm(docWith(schemas), 'Input');
		expect(validator).toBeNull();
		expect(form.note).toMatch(reason);
		expect(form.note).toMatch(/edited as JSON/);
		expect(form.group.fields).toEqual([expect.objectContaining({ kind: 'json', path: [] })]);
		expect(compileValidator(form.inputSchema!).ok).toBe(false);
	});

	it('keeps the form and the validator for a recursive schema that has a base case (a tree)', () => {
		const tree = {
			type: 'object',
			properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } }
		};
		const { form, validator } = prepareModelForm(
			docWith({ Input: input({ properties: { tree: { $ref: '#/components/schemas/Tree' } } }), Tree: tree }),
			'Input'
		);
		expect(form.note).toBeUndefined();
		expect(validator!.validate({ tree: { label: 'a', children: [{ label: 'b', children: [] }] } })).toEqual([]);
		expect(validator!.validate({ tree: { label: 1 } })).toEqual([
			{ path: ['tree', 'label'], message: expect.stringMatching(/string/), keyword: 'type' }
		]);
	});

	it('never throws while validating, whatever the body', () => {
		const { validator } = prepareModelForm(docWith({ Input: input({ required: ['prompt'] }) }), 'Input');
		for (const body of [null, [], 'x', { prompt: { toString: 1 } }, JSON.parse('{"__proto__":{"prompt":1}}')])
			expect(() => validator!.validate(body)).not.toThrow();
	});
});

describe('schema walking is bounded: reference chains, nested allOf and anyOf fan-out', () => {
	const docOf = (schemas: Record<string, unknown>) => ({
		paths: { '/run': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } } } } } },
		components: { schemas }
	});

	it.each([
		[
			'a chain of 5,000 distinct references',
			() =>
				Object.fromEntries(
					Array.from({ length: 5000 }, (_, i) => [
						`S${i}`,
						i === 4999 ? { type: 'object', properties: { a: { type: 'string' } } } : { $ref: `#/components/schemas/S${i + 1}` }
					])
				)
		],
		['allOf nested 5,000 deep', () => ({ S0: JSON.parse('{"allOf":['.repeat(5000) + '{"type":"object"}' + ']}'.repeat(5000)) })],
		[
			'anyOf nested 5,000 deep',
			() => ({
				S0: {
					type: 'object',
					properties: { a: JSON.parse('{"anyOf":[{"type":"string"},'.repeat(5000) + '{"type":"null"}' + ']}'.repeat(5000)) }
				}
			})
		],
		[
			'anyOf fanning out ten ways over twelve names',
			() =>
				Object.fromEntries(
					Array.from({ length: 13 }, (_, i) => [
						`S${i}`,
						i === 12
							? { type: 'string' }
							: {
									type: 'object',
									properties: { a: { anyOf: Array.from({ length: 10 }, () => ({ $ref: `#/components/schemas/S${i + 1}` })) } }
								}
					])
				)
		]
		// No timing here (a busy machine fails timed tests): an unbounded walk never ends, and the test's timeout says so.
	])('%s: a form or a JSON field with the reason', (_what, schemas) => {
		const { form } = prepareModelForm(docOf(schemas()), 'Input');
		expect(form.group.fields.length + (form.problem ? 1 : 0)).toBeGreaterThan(0);
	});
});

describe('bound messages', () => {
	it.each([
		{ schema: { type: 'number', exclusiveMinimum: 0 }, value: 0, message: 'Must be greater than 0.' },
		{ schema: { type: 'number', minimum: 0, exclusiveMinimum: true }, value: -1, message: 'Must be greater than 0.' },
		{ schema: { type: 'number', exclusiveMaximum: 1.5 }, value: 1.5, message: 'Must be less than 1.5.' },
		{ schema: { type: 'integer', maximum: 8, exclusiveMaximum: true }, value: 8, message: 'Must be less than 8.' },
		{ schema: { type: 'number', minimum: -2.5 }, value: -3, message: 'Must be at least -2.5.' },
		{ schema: { type: 'integer', maximum: 10 }, value: 11, message: 'Must be at most 10.' }
	])('$schema for $value', ({ schema, value, message }) => {
		const v = new InputValidator({ type: 'object', properties: { x: schema } });
		expect(v.validate({ x: value })).toMatchObject([{ path: ['x'], message }]);
	});
});

describe('patterns from the schema, matched in linear time', () => {
	const schemaWith = (pattern: string) => ({ type: 'object', properties: { code: { type: 'string', pattern } } });

	it('checks an ordinary pattern, unanchored as JSON Schema means it, and says so at the field', () => {
		const validator = new InputValidator(schemaWith('^[a-z]{3}-\\d+$'));
		expect(validator.validate({ code: 'abc-12' })).toEqual([]);
		expect(validator.validate({ code: 'ABC-12' })).toMatchObject([{ path: ['code'], keyword: 'pattern' }]);
		expect(new InputValidator(schemaWith('b')).validate({ code: 'abc' })).toEqual([]);
	});

	it('keeps ECMAScript meanings RE2 spells differently: \\u escapes, the dot, \\s', () => {
		const v = (p: string, s: string) => new InputValidator(schemaWith(p)).validate({ code: s }).length === 0;
		expect(v('^\\u00e9\\u{1F600}$', 'é😀')).toBe(true);
		expect(v('^a.b$', 'a\rb')).toBe(false);
		expect(v('^a\\sb$', 'a\u00a0b')).toBe(true);
	});

	// How long it takes is measured in bench/schema-pattern.bench.ts, not by this test's clock.
	it('a pattern with nested quantifiers gives the same answers as ECMAScript would', () => {
		const validator = new InputValidator(schemaWith('^(x+x+)+y$'));
		expect(validator.validate({ code: 'x'.repeat(12) })).toMatchObject([{ path: ['code'], keyword: 'pattern' }]);
		expect(validator.validate({ code: `${'x'.repeat(12)}y` })).toEqual([]);
	});

	it("property-name patterns never reach the page's backtracking engine: they are left to the service", () => {
		const validator = new InputValidator({
			type: 'object',
			properties: { ['x'.repeat(40)]: { type: 'string' } },
			patternProperties: { '^(x+x+)+y$': { type: 'number' } },
			additionalProperties: false
		});
		// ECMAScript would try about 2^40 ways to match this name; the extra property is not refused either.
		expect(validator.validate({ ['x'.repeat(40)]: 'text', other: 1 })).toEqual([]);
	});

	it('a pattern the engine refuses never blocks Run, and its field says it is not checked here', () => {
		const doc = {
			paths: { '/run': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Input' } } } } } } },
			components: { schemas: { Input: schemaWith('^(?=.*\\d)\\w+$') } }
		};
		const { form, validator } = prepareModelForm(doc, 'Input');
		expect(validator?.validate({ code: 'no digits' })).toEqual([]);
		const field = form.group.fields.find((f) => f.id === 'code');
		expect(field?.note).toMatch(/cannot be checked here.*the service checks it when you run/);
	});
});
