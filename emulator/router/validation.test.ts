import { describe, expect, it } from 'vitest';
import { InputValidator } from './validation';

describe('the emulator validator (Ajv) answers as pydantic does', () => {
	const validator = new InputValidator({
		type: 'object',
		required: ['prompt'],
		additionalProperties: false,
		properties: {
			prompt: { type: 'string', minLength: 1 },
			seed: { type: 'integer', nullable: true },
			size: { anyOf: [{ $ref: '#/components/schemas/Preset' }, { type: 'object', required: ['width'] }] },
			steps: { type: 'integer', minimum: 1, exclusiveMinimum: true }
		},
		components: { schemas: { Preset: { type: 'string', enum: ['square', 'wide'] } } }
	});

	it.each([
		['a missing field', {}, [{ loc: ['body', 'prompt'], msg: 'Field required', type: 'missing' }]],
		['a nullable integer given a string', { prompt: 'x', seed: 'one' }, [{ loc: ['body', 'seed'], type: 'integer_type', input: 'one' }]],
		['an OpenAPI 3.0 exclusive bound', { prompt: 'x', steps: 1 }, [{ loc: ['body', 'steps'], type: 'greater_than', ctx: { gt: 1 } }]],
		['an extra field', { prompt: 'x', more: 1 }, [{ loc: ['body', 'more'], type: 'extra_forbidden', input: 1 }]],
		[
			'a union no branch accepts, summarised once (branch errors behind $ref too)',
			{ prompt: 'x', size: 'huge' },
			[{ loc: ['body', 'size'], type: 'union_tag_invalid', input: 'huge' }]
		]
	])('%s', (_, body, expected) => {
		const detail = validator.validate(body);
		expect(detail).toHaveLength(expected.length);
		expected.forEach((entry, i) => expect(detail[i]).toMatchObject(entry));
	});

	it('accepts null where 3.0 says nullable, and a valid body', () => {
		expect(validator.validate({ prompt: 'x', seed: null, size: 'wide', steps: 2 })).toEqual([]);
	});

	it('keeps an error of the union’s own schema beside the summary', () => {
		const typed = new InputValidator({ type: 'object', properties: { n: { type: 'string', anyOf: [{ minLength: 3 }, { const: 'a' }] } } });
		expect(typed.validate({ n: 5 }).map((d) => d.type)).toEqual(['string_type']);
		expect(typed.validate({ n: 'bb' }).map((d) => d.type)).toEqual(['union_tag_invalid']);
	});
});
