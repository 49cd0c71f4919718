/**
 * Pre-dispatch validation of a run body against the model's authored schema, answered as a
 * FastAPI/pydantic-style 422 `detail[]`: `loc` from `body`, `msg`, `type`, `ctx`, `input`.
 *
 * The emulator validates with Ajv, the app with @cfworker/json-schema: two independent readings of
 * JSON Schema, so a misreading in one cannot make the app and its emulator agree on a wrong answer
 * (docs/ARCHITECTURE.md). Ajv compiles schemas to code (`new Function`), which is fine in Node.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { RouterValidationErrorEntry } from '../../src/lib/models/protocol/router-api';
import { toJsonSchema } from './schemas/dialect';
import type { JsonSchema } from './schemas/dialect';

// ajv-formats is CommonJS with a default export; under tsx/Node its module object is the function.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/** One compiler for every model: OpenAPI documents carry keywords JSON Schema does not know (`discriminator`, `components`). */
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));

/** Keywords that only say "a child failed"; the child's own error carries the reason. */
const WRAPPERS = new Set(['if', 'contains', 'dependentSchemas', 'propertyNames']);

export class InputValidator {
	private readonly check: ValidateFunction;

	constructor(schema: JsonSchema) {
		this.check = ajv.compile(toJsonSchema(schema));
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
		if (this.check(body)) return [];
		const errors = withoutBranchErrors(this.check.errors ?? []);
		const entries: RouterValidationErrorEntry[] = [];
		const seen = new Set<string>();
		for (const error of errors) {
			if (WRAPPERS.has(error.keyword)) continue;
			const entry = toEntry(error, body);
			const key = JSON.stringify(entry.loc) + entry.type;
			if (seen.has(key)) continue;
			seen.add(key);
			entries.push(entry);
		}
		return entries.length > 0 ? entries : [{ loc: ['body'], msg: 'Input does not match the schema', type: 'value_error', input: body }];
	}
}

/**
 * A failed anyOf/oneOf is summarised by its own error: the errors of its branches go. Ajv lists a
 * union's branch errors just before the union's error, at or below its instance path; branches
 * written inline have schema paths under the union's, branches behind `$ref` have their target's,
 * so a preceding error of the union's own schema (say its `type`) is told apart and kept.
 */
function withoutBranchErrors(errors: ErrorObject[]): ErrorObject[] {
	const dropped = new Set<number>();
	errors.forEach((error, index) => {
		if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') return;
		const unionPath = error.schemaPath;
		const ownSchema = unionPath.slice(0, unionPath.lastIndexOf('/'));
		for (let i = index - 1; i >= 0; i--) {
			const before = errors[i]!;
			const below = before.instancePath === error.instancePath || before.instancePath.startsWith(`${error.instancePath}/`);
			const inBranch = before.schemaPath.startsWith(`${unionPath}/`) || !before.schemaPath.startsWith(`${ownSchema}/`);
			if (!below || !inBranch) break;
			dropped.add(i);
		}
	});
	return errors.filter((_, i) => !dropped.has(i));
}

function pathOf(instancePath: string): Array<string | number> {
	return instancePath
		.split('/')
		.filter((s) => s !== '')
		.map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
		.map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function valueAt(root: unknown, path: Array<string | number>): unknown {
	let cur: unknown = root;
	for (const seg of path) {
		if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, seg)) return undefined;
		cur = (cur as Record<string | number, unknown>)[seg];
	}
	return cur;
}

/** pydantic's wording of allowed values: `'a', 'b' or 'c'`. */
function allowedValues(values: unknown[]): string {
	const shown = values.map((v) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v)));
	return shown.length <= 1 ? (shown[0] ?? 'an allowed value') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

function toEntry(error: ErrorObject, body: unknown): RouterValidationErrorEntry {
	const path = pathOf(error.instancePath);
	const input = valueAt(body, path);
	const loc = ['body', ...path];
	const params = error.params as Record<string, unknown>;
	const limit = params['limit'] as number;
	switch (error.keyword) {
		case 'required':
			return { loc: [...loc, String(params['missingProperty'])], msg: 'Field required', type: 'missing' };
		case 'type': {
			const expected = String(params['type'])
				.split(',')
				.find((t) => t !== 'null');
			return { loc, msg: `Input should be a valid ${expected}`, type: `${expected}_type`, input };
		}
		case 'minimum':
			return { loc, msg: `Input should be greater than or equal to ${limit}`, type: 'greater_than_equal', ctx: { ge: limit }, input };
		case 'maximum':
			return { loc, msg: `Input should be less than or equal to ${limit}`, type: 'less_than_equal', ctx: { le: limit }, input };
		case 'exclusiveMinimum':
			return { loc, msg: `Input should be greater than ${limit}`, type: 'greater_than', ctx: { gt: limit }, input };
		case 'exclusiveMaximum':
			return { loc, msg: `Input should be less than ${limit}`, type: 'less_than', ctx: { lt: limit }, input };
		case 'minLength':
			return { loc, msg: `String should have at least ${limit} characters`, type: 'string_too_short', ctx: { min_length: limit }, input };
		case 'maxLength':
			return { loc, msg: `String should have at most ${limit} characters`, type: 'string_too_long', ctx: { max_length: limit }, input };
		case 'minItems':
			return { loc, msg: `List should have at least ${limit} items`, type: 'too_short', ctx: { min_length: limit }, input };
		case 'maxItems':
			return { loc, msg: `List should have at most ${limit} items`, type: 'too_long', ctx: { max_length: limit }, input };
		case 'multipleOf': {
			const multiple = params['multipleOf'] as number;
			return { loc, msg: `Input should be a multiple of ${multiple}`, type: 'multiple_of', ctx: { multiple_of: multiple }, input };
		}
		case 'enum':
		case 'const': {
			const expected = allowedValues(error.keyword === 'enum' ? (params['allowedValues'] as unknown[]) : [params['allowedValue']]);
			return { loc, msg: `Input should be ${expected}`, type: 'literal_error', ctx: { expected }, input };
		}
		case 'pattern':
			return {
				loc,
				msg: 'String should match the pattern',
				type: 'string_pattern_mismatch',
				ctx: { pattern: String(params['pattern']) },
				input
			};
		case 'format':
			return { loc, msg: 'Input should be a valid URL', type: 'url_parsing', ctx: { format: String(params['format']) }, input };
		case 'additionalProperties':
		case 'unevaluatedProperties': {
			const name = String(params['additionalProperty'] ?? params['unevaluatedProperty']);
			return { loc: [...loc, name], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: valueAt(input, [name]) };
		}
		case 'anyOf':
		case 'oneOf':
			return { loc, msg: 'Input does not match any allowed variant', type: 'union_tag_invalid', input };
		default:
			return { loc, msg: error.message ?? 'Input is not valid', type: 'value_error', input };
	}
}
