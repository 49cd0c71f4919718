/**
 * Browser-side validation of a model input against its schema, by interpretation (no eval, so it
 * runs under the app's CSP): `@cfworker/json-schema` on the schema read into 2020-12 form. Its
 * errors, and a service 422's `detail[].loc`, are placed at the field they point to.
 */
import { format, Validator, type OutputUnit } from '@cfworker/json-schema';
import { compilePattern } from './schema-pattern';
import { fieldId, valueAt, type Field, type FieldPath } from '../../fields/rules/field-model';
import { itemField } from '../../fields/rules/field-values';
import { jsonFallbackForm, schemaToForm, type SchemaForm } from '../../fields/rules/schema-fields';
import { plainMessage } from '../../fields/rules/plain-words';
import { isSchema, type Schema } from '../../core/protocol/openapi';

const INSTANCE_KEYS = new Set(['examples', 'example', 'default', 'enum', 'const']);

/** OpenAPI 3.0 keywords into JSON Schema 2020-12: `nullable`, boolean `exclusive*`, `example`. 3.1 passes through. */
export function toJsonSchema(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(toJsonSchema);
	if (!isSchema(value)) return value;
	const out: Schema = {};
	// defineProperty: a property named `__proto__` must stay a property, not become the prototype.
	for (const [k, v] of Object.entries(value))
		Object.defineProperty(out, k, {
			value: INSTANCE_KEYS.has(k) ? v : toJsonSchema(v),
			writable: true,
			enumerable: true,
			configurable: true
		});
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
	// cfworker would match `pattern` with the page's backtracking RegExp: it checks a format of ours instead.
	if (typeof out['pattern'] === 'string') {
		const check = { format: patternFormat(out['pattern']) };
		out['allOf'] = Array.isArray(out['allOf']) ? [...(out['allOf'] as unknown[]), check] : [check];
		delete out['pattern'];
	}
	// Property-name patterns would meet the page's RegExp too, and cannot become a format: neither they
	// nor the rule for the properties they leave over are checked here (the service checks them).
	if (out['patternProperties'] !== undefined) {
		delete out['patternProperties'];
		delete out['additionalProperties'];
	}
	// `format` is an annotation in 2020-12; cfworker would assert `uri` and refuse data URIs we send.
	if (out['format'] === 'uri' || out['format'] === 'url' || out['format'] === 'binary') delete out['format'];
	return out;
}

const PATTERN_FORMAT = 'runboard-pattern:';
/** Not in cfworker's format table, so it passes: a pattern the linear-time engine refuses is not checked here. */
const UNCHECKED_PATTERN_FORMAT = 'runboard-unchecked-pattern';

/** The name of a format, in cfworker's table, that tests `pattern` in linear time (`schema-pattern.ts`). */
function patternFormat(pattern: string): string {
	const compiled = compilePattern(pattern);
	if (!compiled.ok) return UNCHECKED_PATTERN_FORMAT;
	const name = PATTERN_FORMAT + pattern;
	if (!Object.hasOwn(format, name)) (format as Record<string, (value: string) => boolean>)[name] = compiled.test;
	return name;
}

/** A failed check of our pattern format reads as the `pattern` keyword it stands for. */
function asPattern(unit: OutputUnit): OutputUnit {
	if (unit.keyword !== 'format' || !unit.error.includes(`"${PATTERN_FORMAT}`)) return unit;
	return {
		...unit,
		keyword: 'pattern',
		keywordLocation: unit.keywordLocation.replace(/\/format$/, '/pattern'),
		error: 'String does not match pattern.'
	};
}

export interface FieldError {
	path: FieldPath;
	message: string;
	/** The keyword that failed, so the form can say it in the field's own words (`plain-words.ts`). */
	keyword?: string;
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

const BOUND_WORDS: Record<string, string> = {
	minimum: 'at least',
	exclusiveMinimum: 'greater than',
	maximum: 'at most',
	exclusiveMaximum: 'less than'
};

/** A message a person can act on, from one cfworker output unit. */
function messageOf(unit: OutputUnit): string {
	const e = unit.error;
	switch (unit.keyword) {
		case 'required':
			return 'Required.';
		case 'type': {
			const m = /Expected "([^"]+)"/.exec(e) ?? /type "([^"]+)"/.exec(e);
			return m ? `Must be ${m[1] === 'integer' ? 'a whole number' : `a ${m[1]}`}.` : e;
		}
		case 'minimum':
		case 'exclusiveMinimum':
		case 'maximum':
		case 'exclusiveMaximum': {
			const bound = /(-?[\d.e+-]+)\.?$/i.exec(e)?.[1]?.replace(/\.$/, '');
			if (bound === undefined) return e.replace(/^Instance /, 'The value ');
			return `Must be ${BOUND_WORDS[unit.keyword]} ${bound}.`;
		}
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

	/** Throws on a schema it cannot read; `compileValidator` is the way in that never throws. */
	constructor(inputSchema: Schema) {
		this.validator = new Validator(toJsonSchema(inputSchema) as never, '2020-12', false);
	}

	/**
	 * The errors of a body. A schema that breaks the library on some value (found only when that
	 * value arrives) checks nothing here rather than blocking Run: the service still validates.
	 */
	validate(body: unknown): FieldError[] {
		let result: ReturnType<Validator['validate']>;
		try {
			result = this.validator.validate(body);
		} catch {
			return [];
		}
		if (result.valid) return [];
		const out: FieldError[] = [];
		const seen = new Set<string>();
		const branches = result.errors.filter((u) => u.keyword === 'anyOf' || u.keyword === 'oneOf').map((u) => u.keywordLocation);
		for (const unit of result.errors.map(asPattern)) {
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
			out.push({ path, message, keyword: unit.keyword });
		}
		return out.length ? out : [{ path: [], message: 'The input does not match the schema.' }];
	}
}

export type CompiledValidator = { ok: true; validator: InputValidator } | { ok: false; reason: string };

/** A compiled validator, or why this schema cannot be checked in the browser (never a throw). */
export function compileValidator(inputSchema: Schema): CompiledValidator {
	const reason = schemaDefect(inputSchema);
	if (reason) return { ok: false, reason };
	try {
		const validator = new InputValidator(inputSchema);
		// The library resolves references lazily: one check of an empty body meets most defects now, not at Run.
		validator.validate({});
		return { ok: true, validator };
	} catch (error) {
		return { ok: false, reason: error instanceof Error ? error.message : String(error) };
	}
}

/** Every field of a form, nested ones and array items included. */
function* allFields(fields: Field[]): Generator<Field> {
	for (const f of fields) {
		yield f;
		if (f.kind === 'object') yield* allFields(f.fields);
		if (f.kind === 'variant') yield* allFields(f.variants.map((v) => v.field));
		if (f.kind === 'array') yield* allFields([f.item]);
	}
}

/** A text field whose pattern the linear-time engine refuses says it is not checked here (and the check passes). */
export function noteUncheckedPatterns(fields: Field[]): void {
	for (const f of allFields(fields)) {
		if ((f.kind !== 'text' && f.kind !== 'textarea' && f.kind !== 'secret') || f.pattern === undefined) continue;
		const compiled = compilePattern(f.pattern);
		if (!compiled.ok) f.note = `Its required pattern cannot be checked here (${compiled.reason}); the service checks it when you run.`;
	}
}

/** A model's form and its validator; a schema the validator cannot compile gives the free JSON editor and a note. */
export function prepareModelForm(doc: Schema, title: string): { form: SchemaForm; validator: InputValidator | null } {
	const form = schemaToForm(doc, title);
	if (!form.authored || !form.inputSchema) return { form, validator: null };
	const compiled = compileValidator(form.inputSchema);
	if (compiled.ok) {
		noteUncheckedPatterns(form.group.fields);
		return { form, validator: compiled.validator };
	}
	return {
		form: jsonFallbackForm(
			form,
			`This model's input schema cannot be checked in the browser (${compiled.reason}), so the input is edited as JSON. The service still checks it when you run.`
		),
		validator: null
	};
}

const MAX_SCHEMA_DEPTH = 64;
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'schemas'];
const SCHEMA_ONE = [
	'items',
	'additionalProperties',
	'additionalItems',
	'unevaluatedProperties',
	'unevaluatedItems',
	'not',
	'if',
	'then',
	'else',
	'contains',
	'propertyNames',
	'components'
];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];

/** Resolves a local JSON pointer through own properties only; undefined when it leads nowhere. */
function resolvePointer(root: Schema, ref: string): unknown {
	if (ref === '#') return root;
	if (!ref.startsWith('#/')) return undefined;
	let cur: unknown = root;
	for (const raw of ref.slice(2).split('/')) {
		let key: string;
		try {
			key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
		} catch {
			return undefined;
		}
		if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, key)) return undefined;
		cur = (cur as Schema)[key];
	}
	return cur;
}

/**
 * The first defect that would make the validator throw or loop: keywords of the wrong shape, an
 * invalid pattern, a reference that leads nowhere or only to itself, nesting past the limit.
 * Walked with a stack, not recursion.
 */
export function schemaDefect(root: Schema): string | undefined {
	const stack: Array<{ node: unknown; at: string; depth: number }> = [{ node: root, at: '#', depth: 0 }];
	const sound = new Set<string>();
	while (stack.length) {
		const { node, at, depth } = stack.pop()!;
		if (typeof node === 'boolean') continue;
		if (!isSchema(node)) return `${at} is not a schema`;
		if (depth > MAX_SCHEMA_DEPTH) return `it nests deeper than ${MAX_SCHEMA_DEPTH} levels`;
		const has = (k: string) => Object.hasOwn(node, k);
		if (has('required') && !(Array.isArray(node['required']) && node['required'].every((r) => typeof r === 'string')))
			return `"required" at ${at} is not a list of names`;
		if (has('enum') && !Array.isArray(node['enum'])) return `"enum" at ${at} is not a list`;
		if (has('type')) {
			const t = node['type'];
			if (!(typeof t === 'string' || (Array.isArray(t) && t.every((x) => typeof x === 'string'))))
				return `"type" at ${at} is not a type name`;
		}
		if (has('pattern')) {
			const p = node['pattern'];
			if (typeof p !== 'string') return `"pattern" at ${at} is not text`;
			try {
				new RegExp(p, 'u');
			} catch {
				return `"pattern" at ${at} is not a valid regular expression`;
			}
		}
		if (has('$ref')) {
			const defect = refDefect(root, node['$ref'], at, sound);
			if (defect) return defect;
		}
		for (const key of SCHEMA_MAPS) {
			if (!has(key)) continue;
			const map = node[key];
			if (!isSchema(map)) return `"${key}" at ${at} is not an object`;
			for (const [name, child] of Object.entries(map)) stack.push({ node: child, at: `${at}/${key}/${name}`, depth: depth + 1 });
		}
		for (const key of SCHEMA_ONE) {
			if (!has(key) || Array.isArray(node[key])) continue;
			stack.push({ node: node[key], at: `${at}/${key}`, depth: depth + 1 });
		}
		for (const key of SCHEMA_LISTS) {
			if (!has(key)) continue;
			const list = node[key];
			if (key === 'items' && !Array.isArray(list)) continue;
			if (!Array.isArray(list)) return `"${key}" at ${at} is not a list`;
			list.forEach((child, i) => stack.push({ node: child, at: `${at}/${key}/${i}`, depth: depth + 1 }));
		}
	}
	return undefined;
}

/**
 * A `$ref` must be a local pointer to a schema, and following references must reach something
 * other than a reference within a few dozen hops. `sound` remembers references already followed
 * to a schema, so a document of many references is walked once, not once per reference.
 */
function refDefect(root: Schema, ref: unknown, at: string, sound: Set<string>): string | undefined {
	if (typeof ref !== 'string') return `"$ref" at ${at} is not text`;
	const chain: string[] = [];
	let current = ref;
	for (;;) {
		if (sound.has(current)) break;
		if (chain.includes(current)) return `the reference ${ref} at ${at} refers only to itself`;
		if (chain.length > MAX_SCHEMA_DEPTH) return `the reference ${ref} at ${at} leads through more than ${MAX_SCHEMA_DEPTH} references`;
		chain.push(current);
		const target = resolvePointer(root, current);
		if (typeof target === 'boolean') break;
		if (!isSchema(target)) return `the reference ${current} at ${at} cannot be resolved`;
		const next = target['$ref'];
		if (typeof next !== 'string' || Object.keys(target).some((k) => k !== '$ref' && !ANNOTATIONS.has(k))) break;
		current = next;
	}
	for (const r of chain) sound.add(r);
	return undefined;
}

const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'example', '$comment', 'deprecated', 'readOnly', 'writeOnly']);

/** A 422 `detail[]` entry's `loc` (outermost first, `body` first) as a field path. */
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

export function locToPath(loc: ReadonlyArray<unknown>): FieldPath {
	const rest = loc[0] === 'body' ? loc.slice(1) : [...loc];
	return rest.filter((s): s is string | number => typeof s === 'string' || typeof s === 'number');
}

/** The fields a form shows for these values (array items included), by id. */
export function shownFields(fields: Field[], values: unknown, into: Map<string, Field> = new Map()): Map<string, Field> {
	for (const f of fields) {
		into.set(fieldId(f.path), f);
		if (f.kind === 'object') shownFields(f.fields, values, into);
		if (f.kind === 'variant')
			shownFields(
				f.variants.map((v) => v.field),
				values,
				into
			);
		if (f.kind === 'array') {
			const items = valueAt(values, f.path);
			if (Array.isArray(items)) items.forEach((_, i) => shownFields([itemField(f, i)], values, into));
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
	const shown = shownFields(fields, values);
	// Keyed by field ids, which are property names from the schema (`constructor`, `__proto__`).
	const byField: Record<string, string> = Object.create(null);
	const unplaced: string[] = [];
	for (const error of errors) {
		let placed = false;
		for (let n = error.path.length; n >= 0; n--) {
			const id = fieldId(error.path.slice(0, n));
			if (!shown.has(id)) continue;
			const exact = n === error.path.length;
			const suffix = exact ? '' : ` (at ${error.path.slice(n).join('.')})`;
			// At its own field an error is said in that field's words; deeper ones keep the validator's.
			const field = shown.get(id);
			const message = exact && field && error.keyword ? sentence(plainMessage(field, error)) : error.message;
			const before = byField[id];
			byField[id] = before ? `${before} ${message}${suffix}` : `${message}${suffix}`;
			placed = true;
			break;
		}
		if (!placed) unplaced.push(error.path.length ? `${error.path.join('.')}: ${error.message}` : error.message);
	}
	return { byField, unplaced };
}
