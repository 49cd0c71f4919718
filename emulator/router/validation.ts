/**
 * Pre-dispatch validation of a run body against the model's authored schema, answered as a
 * FastAPI/pydantic-style 422 `detail[]`: `loc` from `body`, `msg`, `type`, `ctx`, `input`.
 */
import { Validator, type OutputUnit } from '@cfworker/json-schema';
import type { RouterValidationErrorEntry } from '../../src/lib/wire/router-api';
import { toJsonSchema } from './schemas/dialect';
import type { JsonSchema } from './schemas/dialect';

/** Keywords that only say "a child failed"; the child's own unit carries the reason. */
const WRAPPERS = new Set([
	'properties',
	'items',
	'prefixItems',
	'$ref',
	'allOf',
	'additionalItems',
	'unevaluatedProperties',
	'dependentSchemas',
	'contains',
	'if',
	'then',
	'else'
]);

export class InputValidator {
	private readonly validator: Validator;

	constructor(schema: JsonSchema) {
		this.validator = new Validator(toJsonSchema(schema) as never, '2020-12', false);
	}

	validate(body: unknown): RouterValidationErrorEntry[] {
		if (typeof body !== 'object' || body === null || Array.isArray(body)) {
			return [
				{
					loc: ['body'],
					msg: 'Input should be a valid dictionary or object to extract fields from',
					type: 'model_attributes_type',
					input: body
				}
			];
		}
		const result = this.validator.validate(body);
		if (result.valid) return [];
		const entries: RouterValidationErrorEntry[] = [];
		const seen = new Set<string>();
		// Errors inside anyOf/oneOf branches are summarised by the branch keyword's own unit.
		const branchFailures = result.errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.keywordLocation);
		for (const unit of result.errors) {
			// `false` is the boolean schema behind additionalProperties: false, reported by that keyword.
			if (WRAPPERS.has(unit.keyword) || unit.keyword === 'false') continue;
			if (branchFailures.some((loc) => unit.keywordLocation.startsWith(loc + '/'))) continue;
			const entry = toEntry(unit, body);
			const key = JSON.stringify(entry.loc) + entry.type;
			if (seen.has(key)) continue;
			seen.add(key);
			entries.push(entry);
		}
		return entries.length > 0 ? entries : [{ loc: ['body'], msg: 'Input does not match the schema', type: 'value_error', input: body }];
	}
}

function pathOf(instanceLocation: string): Array<string | number> {
	return instanceLocation
		.replace(/^#\/?/, '')
		.split('/')
		.filter((s) => s !== '')
		.map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
		.map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function valueAt(root: unknown, path: Array<string | number>): unknown {
	let cur: unknown = root;
	for (const seg of path) {
		if (typeof cur !== 'object' || cur === null) return undefined;
		cur = (cur as Record<string | number, unknown>)[seg];
	}
	return cur;
}

function lastNumber(text: string): number | undefined {
	const all = text.match(/-?\d+(\.\d+)?(e[+-]?\d+)?/gi);
	return all ? Number(all[all.length - 1]) : undefined;
}

/** pydantic's wording of allowed values: `'a', 'b' or 'c'`, read from cfworker's message. */
function allowedValues(unit: OutputUnit): string {
	const listed = /any of (\[.*\])\.?$/.exec(unit.error)?.[1] ?? /match (.*?)\.?$/.exec(unit.error)?.[1];
	let values: unknown[] = [];
	try {
		const parsed: unknown = listed === undefined ? [] : JSON.parse(listed);
		values = Array.isArray(parsed) ? parsed : [parsed];
	} catch {
		return listed ?? 'an allowed value';
	}
	const shown = values.map((v) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v)));
	return shown.length <= 1 ? (shown[0] ?? 'an allowed value') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

function toEntry(unit: OutputUnit, body: unknown): RouterValidationErrorEntry {
	const path = pathOf(unit.instanceLocation);
	const input = valueAt(body, path);
	const loc = ['body', ...path];
	const bound = lastNumber(unit.error);
	switch (unit.keyword) {
		case 'required': {
			const name = /property "(.+)"/.exec(unit.error)?.[1] ?? '';
			return { loc: [...loc, name], msg: 'Field required', type: 'missing' };
		}
		case 'type': {
			const expected = /Expected "(.+?)"/.exec(unit.error)?.[1] ?? 'value';
			return { loc, msg: `Input should be a valid ${expected}`, type: `${expected}_type`, input };
		}
		case 'minimum':
			return { loc, msg: `Input should be greater than or equal to ${bound}`, type: 'greater_than_equal', ctx: { ge: bound }, input };
		case 'maximum':
			return { loc, msg: `Input should be less than or equal to ${bound}`, type: 'less_than_equal', ctx: { le: bound }, input };
		case 'exclusiveMinimum':
			return { loc, msg: `Input should be greater than ${bound}`, type: 'greater_than', ctx: { gt: bound }, input };
		case 'exclusiveMaximum':
			return { loc, msg: `Input should be less than ${bound}`, type: 'less_than', ctx: { lt: bound }, input };
		case 'minLength':
			return { loc, msg: `String should have at least ${bound} characters`, type: 'string_too_short', ctx: { min_length: bound }, input };
		case 'maxLength':
			return { loc, msg: `String should have at most ${bound} characters`, type: 'string_too_long', ctx: { max_length: bound }, input };
		case 'minItems':
			return { loc, msg: `List should have at least ${bound} items`, type: 'too_short', ctx: { min_length: bound }, input };
		case 'maxItems':
			return { loc, msg: `List should have at most ${bound} items`, type: 'too_long', ctx: { max_length: bound }, input };
		case 'multipleOf':
			return { loc, msg: `Input should be a multiple of ${bound}`, type: 'multiple_of', ctx: { multiple_of: bound }, input };
		case 'enum':
		case 'const': {
			const expected = allowedValues(unit);
			return { loc, msg: `Input should be ${expected}`, type: 'literal_error', ctx: { expected }, input };
		}
		case 'pattern':
			return {
				loc,
				msg: 'String should match the pattern',
				type: 'string_pattern_mismatch',
				ctx: { pattern: /"(.*)"\.?$/.exec(unit.error)?.[1] ?? '' },
				input
			};
		case 'format':
			return {
				loc,
				msg: 'Input should be a valid URL',
				type: 'url_parsing',
				ctx: { format: /format "(.+?)"/.exec(unit.error)?.[1] ?? '' },
				input
			};
		case 'additionalProperties':
		case 'unevaluatedProperties': {
			const name = /"(.+?)"/.exec(unit.error)?.[1];
			return {
				loc: name ? [...loc, name] : loc,
				msg: 'Extra inputs are not permitted',
				type: 'extra_forbidden',
				input: name ? valueAt(input, [name]) : input
			};
		}
		case 'anyOf':
		case 'oneOf':
			return { loc, msg: 'Input does not match any allowed variant', type: 'union_tag_invalid', input };
		default:
			return { loc, msg: unit.error, type: 'value_error', input };
	}
}
