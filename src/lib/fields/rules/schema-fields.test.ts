import { describe, expect, it } from 'vitest';
import type { Field } from './field-model';
import { activeVariant, cleanBody, itemField } from './field-values';
import { propertyOrder, schemaToForm } from './schema-fields';
import { buildCatalog } from '../../../../emulator/router/catalog';
import { buildSchemaDocument } from '../../../../emulator/router/schemas/document';

type Schema = Record<string, unknown>;

function doc(input: Schema, components: Schema = {}, openapi = '3.1.0', extra: Schema = {}): Schema {
	return {
		openapi,
		'x-service-input-schema-authored': true,
		paths: { '/v2/models/a/b': { post: { requestBody: { content: { 'application/json': { schema: input } } } } } },
		components: { schemas: components },
		...extra
	};
}

const byName = (fields: Field[], name: string) => fields.find((f) => f.path[f.path.length - 1] === name)!;

describe('schema to fields', () => {
	it('maps text, textarea, enums, booleans, numbers with sliders only when bounded, and seeds by name', () => {
		const form = schemaToForm(
			doc({
				type: 'object',
				required: ['prompt'],
				properties: {
					prompt: { type: 'string', maxLength: 4000, examples: ['a cat'] },
					name: { type: 'string', title: 'Name' },
					style: { type: 'string', enum: ['a', 'b'], default: 'a' },
					fast: { type: 'boolean', default: true },
					steps: { type: 'integer', minimum: 1, maximum: 50, default: 28 },
					scale: { type: 'number', minimum: 0 },
					seed: { type: ['integer', 'null'], minimum: 0, default: null },
					noise_seed: { type: 'integer' }
				}
			})
		);
		const f = form.group.fields;
		expect(byName(f, 'prompt')).toMatchObject({ kind: 'textarea', required: true, advanced: false, examples: ['a cat'], maxLength: 4000 });
		expect(byName(f, 'name')).toMatchObject({ kind: 'text', label: 'Name', advanced: true });
		expect(byName(f, 'style')).toMatchObject({ kind: 'enum', options: [{ value: 'a' }, { value: 'b' }], default: 'a' });
		expect(byName(f, 'fast')).toMatchObject({ kind: 'boolean' });
		expect(byName(f, 'steps')).toMatchObject({ kind: 'integer', min: 1, max: 50, slider: true, step: 1 });
		expect(byName(f, 'scale')).toMatchObject({ kind: 'number', min: 0, slider: false });
		expect(byName(f, 'seed')).toMatchObject({ kind: 'seed', nullable: true, min: 0 });
		// No bounds are invented: the schema gives a minimum only.
		expect(byName(f, 'seed')).not.toHaveProperty('max');
		expect(byName(f, 'noise_seed')).not.toHaveProperty('min');
		expect(byName(f, 'noise_seed')).toMatchObject({ kind: 'seed' });
		expect(form.defaults).toEqual({ style: 'a', fast: true, steps: 28, seed: null });
	});

	it('reads OpenAPI 3.0 nullable, example and boolean exclusive bounds like their 3.1 forms', () => {
		const f = schemaToForm(
			doc(
				{
					type: 'object',
					properties: {
						neg: { type: 'string', nullable: true, example: 'blurry' },
						cfg: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10 },
						preset: { type: 'string', enum: ['x', 'y', null], nullable: true }
					}
				},
				{},
				'3.0.3'
			)
		).group.fields;
		expect(byName(f, 'neg')).toMatchObject({ kind: 'text', nullable: true, examples: ['blurry'] });
		expect(byName(f, 'cfg')).toMatchObject({ min: 0, max: 10, slider: true });
		expect(byName(f, 'preset')).toMatchObject({ kind: 'enum', nullable: true, options: [{ value: 'x' }, { value: 'y' }] });
	});

	it('resolves $ref and allOf with siblings winning, and turns anyOf into a variant switch', () => {
		const f = schemaToForm(
			doc(
				{ $ref: '#/components/schemas/Input' },
				{
					Preset: { type: 'string', enum: ['square', 'wide'] },
					Size: {
						type: 'object',
						title: 'Size',
						required: ['width'],
						properties: { width: { type: 'integer', minimum: 64, maximum: 2048 }, height: { type: 'integer' } }
					},
					Format: { type: 'string', enum: ['png', 'jpeg'] },
					Input: {
						type: 'object',
						properties: {
							size: { anyOf: [{ $ref: '#/components/schemas/Preset' }, { $ref: '#/components/schemas/Size' }], default: 'square' },
							format: { allOf: [{ $ref: '#/components/schemas/Format' }], default: 'png', description: 'Encoding.' },
							maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] }
						}
					}
				}
			)
		).group.fields;
		const size = byName(f, 'size');
		expect(size).toMatchObject({ kind: 'variant', default: 'square' });
		if (size.kind !== 'variant') throw new Error('variant expected');
		expect(size.variants.map((v) => v.label)).toEqual(['Preset', 'Size']);
		expect(size.variants[1]!.field).toMatchObject({ kind: 'object', path: ['size'] });
		expect(activeVariant(size, { width: 512 })).toBe(1);
		expect(activeVariant(size, 'wide')).toBe(0);
		expect(byName(f, 'format')).toMatchObject({ kind: 'enum', default: 'png', description: 'Encoding.' });
		expect(byName(f, 'maybe')).toMatchObject({ kind: 'text', nullable: true });
	});

	it('finds media fields by format uri, *_url and *_urls, and secrets by password format or writeOnly', () => {
		const f = schemaToForm(
			doc({
				type: 'object',
				required: ['image_url'],
				properties: {
					image_url: { type: 'string', description: 'The image to edit.' },
					mask_url: { type: 'string', format: 'uri' },
					audio_urls: { type: 'array', items: { type: 'string' } },
					video: { type: 'string', format: 'uri', description: 'A video clip.' },
					api_token: { type: 'string', format: 'password' },
					other_key: { type: 'string', writeOnly: true }
				}
			})
		).group.fields;
		expect(byName(f, 'image_url')).toMatchObject({ kind: 'media', transport: 'url', accept: 'image' });
		expect(byName(f, 'mask_url')).toMatchObject({ kind: 'media', mask: true });
		expect(byName(f, 'audio_urls')).toMatchObject({ kind: 'array', item: { kind: 'media', accept: 'audio', path: ['audio_urls', 0] } });
		expect(byName(f, 'video')).toMatchObject({ kind: 'media', accept: 'video' });
		expect(byName(f, 'api_token')).toMatchObject({ kind: 'secret' });
		expect(byName(f, 'other_key')).toMatchObject({ kind: 'secret' });
	});

	it.each([
		// The schema's own hints outrank words in the name or description.
		{ name: 'input', schema: { type: 'string', contentMediaType: 'image/png', description: 'A video frame source' }, accept: 'image' },
		{ name: 'clip_url', schema: { type: 'string', contentMediaType: 'audio/wav' }, accept: 'audio' },
		{ name: 'start_url', schema: { type: 'string', format: 'image', description: 'Start of the video' }, accept: 'image' },
		{ name: 'source', schema: { type: 'string', format: 'video-url' }, accept: 'video' },
		{ name: 'reference_url', schema: { type: 'string', _fal_ui_field: 'image', description: 'Used for the video.' }, accept: 'image' },
		{ name: 'input_url', schema: { type: 'string', ui: { field: 'audio' } }, accept: 'audio' },
		{ name: 'media_url', schema: { type: 'string', 'x-media-type': 'video' }, accept: 'video' },
		{ name: 'first_url', schema: { type: 'string', examples: ['https://cdn.example/a/first.jpg'] }, accept: 'image' },
		{ name: 'driver_url', schema: { type: 'string', default: 'https://cdn.example/dance.mp4?x=1' }, accept: 'video' },
		// Then the name before the description: an image described by a video stays an image.
		{ name: 'image_url', schema: { type: 'string', description: 'The first frame of the generated video.' }, accept: 'image' },
		{ name: 'start_image', schema: { type: 'string', format: 'uri', description: 'Video starts here.' }, accept: 'image' },
		{ name: 'video_url', schema: { type: 'string', description: 'Sound is taken from this.' }, accept: 'video' },
		{ name: 'input_url', schema: { type: 'string', description: 'A speech recording.' }, accept: 'audio' },
		{ name: 'file_url', schema: { type: 'string' }, accept: 'any' }
	])('the media kind of $name comes from the schema first', ({ name, schema, accept }) => {
		const f = schemaToForm(doc({ type: 'object', properties: { [name]: schema } })).group.fields;
		expect(byName(f, name)).toMatchObject({ kind: 'media', accept });
	});

	it('maps arrays of objects and nested objects, with item paths moved to their index', () => {
		const f = schemaToForm(
			doc({
				type: 'object',
				properties: {
					loras: {
						type: 'array',
						maxItems: 3,
						items: {
							type: 'object',
							required: ['path'],
							properties: { path: { type: 'string', format: 'uri' }, scale: { type: 'number', minimum: 0, maximum: 4, default: 1 } }
						}
					},
					settings: { type: 'object', properties: { inner: { type: 'object', properties: { deep: { type: 'boolean' } } } } }
				}
			})
		).group.fields;
		const loras = byName(f, 'loras');
		if (loras.kind !== 'array') throw new Error('array expected');
		expect(loras).toMatchObject({ maxItems: 3, item: { kind: 'object' } });
		const second = itemField(loras, 2);
		expect(second).toMatchObject({ path: ['loras', 2], id: 'loras.2' });
		if (second.kind !== 'object') throw new Error('object expected');
		expect(second.fields.map((x) => x.id)).toEqual(['loras.2.path', 'loras.2.scale']);
		expect(byName(f, 'settings')).toMatchObject({
			kind: 'object',
			fields: [{ kind: 'object', fields: [{ kind: 'boolean', path: ['settings', 'inner', 'deep'] }] }]
		});
	});

	it('orders by x-fal-order-properties, then x-order, else as the document lists them (not required first)', () => {
		expect(propertyOrder({ properties: { a: {}, b: {}, c: {} }, 'x-fal-order-properties': ['c', 'a'] })).toEqual(['c', 'a', 'b']);
		expect(propertyOrder({ properties: { a: { 'x-order': 2 }, b: { 'x-order': 0 }, c: { 'x-order': 1 } } })).toEqual(['b', 'c', 'a']);
		expect(propertyOrder({ properties: { a: {}, b: {}, c: {} }, required: ['c'] })).toEqual(['a', 'b', 'c']);
	});

	it('keeps a documented -1 ("random") seed allowed: only the schema bounds a seed', () => {
		const f = schemaToForm(
			doc({
				type: 'object',
				properties: { seed: { type: 'integer', default: -1, description: 'Random seed. Set to -1 to randomize.' } }
			})
		).group.fields;
		const seed = byName(f, 'seed');
		expect(seed).toMatchObject({ kind: 'seed', default: -1 });
		expect(seed).not.toHaveProperty('min');
	});

	it('falls back visibly to JSON fields with a reason for what it cannot express', () => {
		const f = schemaToForm(
			doc({
				type: 'object',
				properties: {
					free: { type: 'object', additionalProperties: true },
					mixed: { type: ['string', 'integer'] },
					loop: { $ref: '#/components/schemas/Missing' },
					list: { type: 'array' }
				}
			})
		).group.fields;
		expect(f.map((x) => x.kind)).toEqual(['json', 'json', 'json', 'json']);
		expect(byName(f, 'free')).toMatchObject({ reason: 'a free-form object' });
		expect(byName(f, 'loop')).toMatchObject({ reason: expect.stringContaining('cannot resolve') });
	});

	it('treats a recursive schema without looping', () => {
		const f = schemaToForm(
			doc({ $ref: '#/components/schemas/Node' }, { Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } } })
		).group.fields;
		expect(f[0]).toMatchObject({ kind: 'json', reason: expect.stringContaining('recursive') });
	});

	it('gives an unauthored schema one JSON editor for the whole body', () => {
		const form = schemaToForm(
			doc({ type: 'object', additionalProperties: true }, {}, '3.1.0', { 'x-service-input-schema-authored': false })
		);
		expect(form.authored).toBe(false);
		expect(form.group.fields).toMatchObject([{ kind: 'json', path: [] }]);
	});

	it('leaves empty optional text out of the body', () => {
		const fields = schemaToForm(
			doc({ type: 'object', required: ['prompt'], properties: { prompt: { type: 'string' }, neg: { type: 'string' } } })
		).group.fields;
		expect(cleanBody(fields, { prompt: '', neg: '', extra: 1 })).toEqual({ prompt: '', extra: 1 });
	});

	it('maps every schema document of the emulator catalog without an unexpected JSON fallback', () => {
		const fallbacks: string[] = [];
		for (const model of buildCatalog()) {
			const form = schemaToForm(buildSchemaDocument(model).document);
			const walk = (fields: Field[]): void => {
				for (const x of fields) {
					if (x.kind === 'json') fallbacks.push(`${model.kind}:${x.id}`);
					if (x.kind === 'object') walk(x.fields);
					if (x.kind === 'array') walk([x.item]);
					if (x.kind === 'variant') walk(x.variants.map((v) => v.field));
				}
			};
			walk(form.group.fields);
		}
		// Only the unauthored community models (whole body), an LLM's free-form json_schema and the self-referencing outline are JSON.
		expect([...new Set(fallbacks)].sort()).toEqual(['llm:outline', 'llm:response_format.json_schema', 'unauthored:body']);
	});
});

describe('emulator models shaped like real fal and Cog documents', () => {
	const formOf = (id: string) => schemaToForm(buildSchemaDocument(buildCatalog().find((m) => m.id === id)!).document).group.fields;

	it('takes the media kind of hinted fal file inputs from their hints, not from "video" in the description', () => {
		const f = formOf('kestrel/keyframes-v1');
		expect(byName(f, 'start_url')).toMatchObject({ kind: 'media', accept: 'image' });
		expect(byName(f, 'end_url')).toMatchObject({ kind: 'media', accept: 'image' });
		expect(byName(f, 'soundtrack')).toMatchObject({ kind: 'media', accept: 'audio' });
	});

	it('reads the Cog image input (format uri, no required list) as an image', () => {
		expect(byName(formOf('cogwork/sdxl-img2img'), 'image')).toMatchObject({ kind: 'media', accept: 'image', required: false });
	});
});

describe('schemas with no required list', () => {
	const shown = (properties: Schema, extra: Schema = {}) => {
		const f = schemaToForm(doc({ type: 'object', properties, ...extra })).group.fields;
		return { main: f.filter((x) => !x.advanced).map((x) => x.id), advanced: f.filter((x) => x.advanced).map((x) => x.id) };
	};

	it.each([
		{
			name: 'Cog image: prompts and the image first, by x-order',
			properties: {
				seed: { type: 'integer', 'x-order': 3 },
				image: { type: 'string', format: 'uri', 'x-order': 2 },
				prompt: { type: 'string', 'x-order': 0 },
				negative_prompt: { type: 'string', 'x-order': 1 },
				width: { type: 'integer', 'x-order': 4 }
			},
			main: ['prompt', 'negative_prompt', 'image'],
			advanced: ['seed', 'width']
		},
		{
			name: 'a media list and a text input',
			properties: {
				steps: { type: 'integer', 'x-order': 0 },
				image_urls: { type: 'array', items: { type: 'string' }, 'x-order': 1 },
				text: { type: 'string', 'x-order': 2 }
			},
			main: ['image_urls', 'text', 'steps'],
			advanced: []
		},
		{
			name: 'no prompt or media: the earliest few by x-order',
			properties: {
				d: { type: 'number', 'x-order': 3 },
				a: { type: 'number', 'x-order': 0 },
				b: { type: 'boolean', 'x-order': 1 },
				c: { type: 'string', 'x-order': 2 },
				e: { type: 'integer', 'x-order': 4 }
			},
			main: ['a', 'b', 'c'],
			advanced: ['d', 'e']
		},
		{
			name: 'an empty required list counts as none',
			properties: {
				top_p: { type: 'number', 'x-order': 1 },
				prompt: { type: 'string', 'x-order': 0 },
				max_tokens: { type: 'integer', 'x-order': 2 },
				t: { type: 'number', 'x-order': 3 }
			},
			extra: { required: [] },
			main: ['prompt', 'top_p', 'max_tokens'],
			advanced: ['t']
		}
	])('$name', ({ properties, extra, main, advanced }) => {
		expect(shown(properties, extra)).toEqual({ main, advanced });
	});

	it('keeps a required list as the line between main and advanced', () => {
		expect(shown({ a: { type: 'number' }, prompt: { type: 'string' } }, { required: ['a'] })).toEqual({
			main: ['a'],
			advanced: ['prompt']
		});
	});
});

describe('exclusive bounds', () => {
	it.each([
		{
			name: '3.1 numeric, fractional',
			schema: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
			want: { min: 0, max: 1, exclusiveMin: true, exclusiveMax: true }
		},
		{
			name: 'draft-4 boolean, fractional',
			schema: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 2, exclusiveMaximum: false },
			want: { min: 0, max: 2, exclusiveMin: true }
		},
		{
			name: '3.1 numeric, whole numbers move inside',
			schema: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 },
			want: { min: 1, max: 9 }
		},
		{
			name: 'draft-4 boolean, whole numbers',
			schema: { type: 'integer', minimum: 1, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: true },
			want: { min: 2, max: 4 }
		},
		{
			name: 'the tighter of both forms wins',
			schema: { type: 'number', minimum: 3, exclusiveMinimum: 1, maximum: 4, exclusiveMaximum: 4 },
			want: { min: 3, max: 4, exclusiveMax: true }
		}
	])('$name', ({ schema, want }) => {
		const field = byName(schemaToForm(doc({ type: 'object', properties: { x: schema } })).group.fields, 'x');
		const { min, max, exclusiveMin, exclusiveMax } = field as Extract<Field, { kind: 'number' | 'integer' }>;
		expect({ min, max, exclusiveMin, exclusiveMax }).toEqual({ exclusiveMin: undefined, exclusiveMax: undefined, ...want });
	});
});

describe('variant labels', () => {
	const labels = (branches: Schema[], components: Schema = {}) => {
		const f = byName(schemaToForm(doc({ type: 'object', properties: { v: { anyOf: branches } } }, components)).group.fields, 'v');
		if (f.kind !== 'variant') throw new Error(`variant expected, got ${f.kind}`);
		return f.variants.map((x) => x.label);
	};

	it.each([
		{
			name: 'an enum and a width/height object',
			branches: [
				{ type: 'string', enum: ['square', 'portrait_4_3'] },
				{ type: 'object', properties: { width: { type: 'integer' }, height: { type: 'integer' } } }
			],
			want: ['Preset', 'Custom size']
		},
		{
			name: 'titles win',
			branches: [
				{ type: 'string', title: 'Named style' },
				{ type: 'integer', title: 'style_id' }
			],
			want: ['Named style', 'Style id']
		},
		{
			name: 'scalars by what they hold',
			branches: [{ type: 'string', format: 'uri' }, { type: 'number', minimum: 0, maximum: 1 }, { type: 'boolean' }],
			want: ['Link', 'Amount (0 to 1)', 'On or off']
		},
		{ name: 'plain text and a list', branches: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], want: ['Text', 'List'] },
		{
			name: 'two lists told apart',
			branches: [
				{ type: 'array', items: { type: 'string' } },
				{ type: 'array', items: { type: 'number' } }
			],
			want: ['List (1)', 'List (2)']
		},
		{
			name: 'an object named by its fields',
			branches: [{ type: 'string' }, { type: 'object', properties: { url: { type: 'string' }, weight: { type: 'number' } } }],
			want: ['Text', 'Custom (url, weight)']
		}
	])('$name', ({ branches, want }) => {
		const got = labels(branches);
		expect(got).toEqual(want);
		for (const l of got) expect(['String', 'Number', 'Integer', 'Object', 'Array', 'Boolean']).not.toContain(l);
	});
});
