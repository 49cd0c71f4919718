/**
 * Browser-side validation of a model input against its schema, by interpretation (no eval, so it
 * runs under the app's CSP): `@cfworker/json-schema` on the schema read into 2020-12 form. Its
 * errors, and a service 422's `detail[].loc`, are placed at the field they point to.
 */
import { Validator, type OutputUnit } from '@cfworker/json-schema';
import { fieldId, valueAt, type Field, type FieldPath } from './field-model';
import { itemField } from './schema-fields';

type Schema = { [key: string]: unknown };

function isSchema(value: unknown): value is Schema {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const INSTANCE_KEYS = new Set(['examples', 'example', 'default', 'enum', 'const']);

/** OpenAPI 3.0 keywords into JSON Schema 2020-12: `nullable`, boolean `exclusive*`, `example`. 3.1 passes through. */
export function toJsonSchema(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(toJsonSchema);
	if (!isSchema(value)) return value;
	const out: Schema = {};
	for (const [k, v] of Object.entries(value)) out[k] = INSTANCE_KEYS.has(k) ? v : toJsonSchema(v);
	if (out['nullable'] === true) {
		const t = out['type'];
		if (typeof t === 'string') out['type'] = [t, 'null'];
		else if (Array.isArray(t) && !t.includes('null')) out['type'] = [...t, 'null'];
		if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...out['enum'], null];
	}
	delete out['nullable'];
	delete out['example'];
	for (const [ex, bound] of [
		['exclusiveMinimum', 'minimum'],
		['exclusiveMaximum', 'maximum']
	] as const) {
		if (out[ex] === true && typeof out[bound] === 'number') {
			out[ex] = out[bound];
			delete out[bound];
		} else if (typeof out[ex] === 'boolean') delete out[ex];
	}
	// `format` is an annotation in 2020-12; cfworker would assert `uri` and refuse data URIs we send.
	if (out['format'] === 'uri' || out['format'] === 'url' || out['format'] === 'binary') delete out['format'];
	return out;
}

export interface FieldError {
	path: FieldPath;
	message: string;
}

function pointerToPath(pointer: string): FieldPath {
	const body = pointer.replace(/^#/, '');
	if (body === '' || body === '/') return [];
	return body
		.slice(1)
		.split('/')
		.map((raw) => {
			const s = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
			return /^\d+$/.test(s) ? Number(s) : s;
		});
}

/** A message a person can act on, from one cfworker output unit. */
function messageOf(unit: OutputUnit): string {
	const e = unit.error;
	switch (unit.keyword) {
		case 'required':
			return 'Required.';
		case 'type': {
			const m = /type "([^"]+)"/.exec(e);
			return m ? `Must be ${m[1] === 'integer' ? 'a whole number' : `a ${m[1]}`}.` : e;
		}
		case 'minimum':
		case 'exclusiveMinimum':
		case 'maximum':
		case 'exclusiveMaximum':
		case 'minLength':
		case 'maxLength':
		case 'minItems':
		case 'maxItems':
		case 'pattern':
		case 'multipleOf':
			return e.replace(/^Instance /, 'The value ');
		case 'enum':
		case 'const':
			return 'Choose one of the offered values.';
		case 'additionalProperties':
		case 'unevaluatedProperties':
			return e.replace(/^Instance /, '');
		default:
			return e;
	}
}

const WRAPPERS = new Set([
	'properties',
	'items',
	'prefixItems',
	'$ref',
	'allOf',
	'additionalItems',
	'dependentSchemas',
	'contains',
	'if',
	'then',
	'else'
]);

export class InputValidator {
	private readonly validator: Validator;

	constructor(inputSchema: Schema) {
		this.validator = new Validator(toJsonSchema(inputSchema) as never, '2020-12', false);
	}

	validate(body: unknown): FieldError[] {
		const result = this.validator.validate(body);
		if (result.valid) return [];
		const out: FieldError[] = [];
		const seen = new Set<string>();
		const branches = result.errors.filter((u) => u.keyword === 'anyOf' || u.keyword === 'oneOf').map((u) => u.keywordLocation);
		for (const unit of result.errors) {
			if (WRAPPERS.has(unit.keyword) || unit.keyword === 'false') continue;
			if (branches.some((loc) => unit.keywordLocation.startsWith(`${loc}/`))) continue;
			let path = pointerToPath(unit.instanceLocation);
			if (unit.keyword === 'required') {
				const m = /property "([^"]+)"/.exec(unit.error);
				if (m) path = [...path, m[1]!];
			}
			const message = unit.keyword === 'anyOf' || unit.keyword === 'oneOf' ? 'Does not match any of the allowed shapes.' : messageOf(unit);
			const key = fieldId(path);
			if (seen.has(key)) continue;
			seen.add(key);
			out.push({ path, message });
		}
		return out.length ? out : [{ path: [], message: 'The input does not match the schema.' }];
	}
}

/** A 422 `detail[]` entry's `loc` (outermost first, `body` first) as a field path. */
export function locToPath(loc: ReadonlyArray<unknown>): FieldPath {
	const rest = loc[0] === 'body' ? loc.slice(1) : [...loc];
	return rest.filter((s): s is string | number => typeof s === 'string' || typeof s === 'number');
}

/** Ids of the fields a form shows for these values (array items included). */
export function shownFieldIds(fields: Field[], values: unknown, into: Set<string> = new Set()): Set<string> {
	for (const f of fields) {
		into.add(fieldId(f.path));
		if (f.kind === 'object') shownFieldIds(f.fields, values, into);
		if (f.kind === 'variant')
			shownFieldIds(
				f.variants.map((v) => v.field),
				values,
				into
			);
		if (f.kind === 'array') {
			const items = valueAt(values, f.path);
			if (Array.isArray(items)) items.forEach((_, i) => shownFieldIds([itemField(f, i)], values, into));
		}
	}
	return into;
}

/**
 * Puts each error at the deepest shown field its path reaches (a free-form JSON part takes the
 * errors inside it); errors that reach no field at all are returned as `unplaced`, for the top.
 */
export function placeErrors(
	fields: Field[],
	values: unknown,
	errors: FieldError[]
): { byField: Record<string, string>; unplaced: string[] } {
	const shown = shownFieldIds(fields, values);
	const byField: Record<string, string> = {};
	const unplaced: string[] = [];
	for (const error of errors) {
		let placed = false;
		for (let n = error.path.length; n >= 0; n--) {
			const id = fieldId(error.path.slice(0, n));
			if (!shown.has(id)) continue;
			const suffix = n < error.path.length ? ` (at ${error.path.slice(n).join('.')})` : '';
			byField[id] = byField[id] ? `${byField[id]} ${error.message}${suffix}` : `${error.message}${suffix}`;
			placed = true;
			break;
		}
		if (!placed) unplaced.push(error.path.length ? `${error.path.join('.')}: ${error.message}` : error.message);
	}
	return { byField, unplaced };
}
