/**
 * The pure mapping from a model's OpenAPI document (3.0 or 3.1, and 3.1 keywords under a 3.0
 * label) to the one field model: `$ref`/`allOf` resolved, `anyOf`/`oneOf` as a variant switch,
 * nullable both ways, enums, bounded numbers as sliders, seeds by name, URLs as media, arrays,
 * nested objects, secrets, optional fields behind "advanced", ordering hints, examples and defaults.
 * Whatever it cannot express becomes a visible JSON field with the reason.
 */
import {
	fieldId,
	looksLikeSeed,
	withValueAt,
	type EnumOption,
	type Field,
	type FieldBase,
	type FieldGroup,
	type FieldPath
} from './field-model';
import { hintedMediaKind, mediaAcceptOf } from './media-accept';
import { bounds, examplesOf, humanize, inferType, num, stringLimits, typesOf } from './schema-keywords';
import { Resolver } from './schema-resolver';
import { nestingDepth } from '../../core/protocol/json';
import { isSchema, requestBodySchema, type Schema } from '../../core/protocol/openapi';

export const AUTHORED_FLAG = 'x-service-input-schema-authored';
const MAX_DEPTH = 12;
const MAX_FIELDS = 1000;
/** Real OpenAPI documents nest a few dozen levels; deeper would overflow cloning the defaults. */
const MAX_DOCUMENT_DEPTH = 256;
const TEXTAREA_MIN_LENGTH = 200;

export interface SchemaForm {
	/** False when the document says the input schema is not authored: any JSON object is accepted. */
	authored: boolean;
	group: FieldGroup;
	/** The request-body schema with the document's components beside it, for the validator. */
	inputSchema: Schema | null;
	/** Values of every default, at their paths. */
	defaults: Record<string, unknown>;
	/** Why no form could be built (no request body), when that is the case. */
	problem?: string;
	/** Shown above the form: why it is the free JSON editor although the model has a schema. */
	note?: string;
}

const looksLikeUrlName = (name: string) => /(^|_)url$/i.test(name) || /Url$/.test(name);
const looksLikeUrlsName = (name: string) => /(^|_)urls$/i.test(name) || /Urls$/.test(name);

interface Ctx {
	resolver: Resolver;
	depth: number;
	/** References followed on the way here: meeting one again is a recursive schema. */
	refs: ReadonlySet<string>;
	/** Fields left to map in the whole form (shared by every branch). */
	budget: { fields: number };
}

function base(name: string, path: FieldPath, schema: Schema, required: boolean, nullable: boolean, advanced: boolean): FieldBase {
	const title = typeof schema['title'] === 'string' ? schema['title'] : undefined;
	const description = typeof schema['description'] === 'string' ? schema['description'] : undefined;
	const examples = examplesOf(schema);
	return {
		id: fieldId(path),
		path,
		// A component's title (`ImageSize`) names the type, not the field: prefer the property name then.
		label: title && title !== name && !/^[A-Z][A-Za-z0-9]+$/.test(title) ? title : humanize(name || title || 'Value'),
		...(description ? { description } : {}),
		required,
		advanced,
		nullable,
		...('default' in schema ? { default: schema['default'] } : {}),
		...(examples ? { examples } : {}),
		...(/prompt|^text$|image_url|image_size|seed/.test(name) ? { main: true } : {})
	};
}

function jsonField(name: string, path: FieldPath, schema: Schema, required: boolean, advanced: boolean, reason: string): Field {
	return { ...base(name, path, schema, required, typesOf(schema).nullable, advanced), kind: 'json', reason };
}

function enumLabel(value: unknown): string {
	return value === null ? 'None' : typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A variant's label from its shape when it has no title: what a person chooses between ("Preset",
 * "Custom size", "Link"), never a JSON type name.
 */
function shapeLabel(schema: Schema): string | undefined {
	if (Array.isArray(schema['enum'])) return schema['enum'].length === 1 ? enumLabel(schema['enum'][0]) : 'Preset';
	if ('const' in schema) return enumLabel(schema['const']);
	const type = Array.isArray(schema['type']) ? schema['type'].find((t) => t !== 'null') : schema['type'];
	const props = isSchema(schema['properties']) ? Object.keys(schema['properties']) : [];
	switch (type ?? (props.length ? 'object' : undefined)) {
		case 'object':
			if (props.includes('width') || props.includes('height')) return 'Custom size';
			if (props.length === 0) return 'Custom settings';
			return `Custom (${props
				.slice(0, 3)
				.map((p) => humanize(p).toLowerCase())
				.join(', ')}${props.length > 3 ? ', …' : ''})`;
		case 'string': {
			const format = schema['format'];
			if (format === 'uri' || format === 'url' || hintedMediaKind(schema)) return 'Link';
			if (schema['contentEncoding'] === 'base64' || format === 'byte') return 'Inline data';
			return 'Text';
		}
		case 'integer':
		case 'number': {
			const { min, max } = bounds(schema, type === 'integer');
			return min !== undefined && max !== undefined ? `Amount (${min} to ${max})` : 'Amount';
		}
		case 'boolean':
			return 'On or off';
		case 'array':
			return 'List';
		default:
			return undefined;
	}
}

/** One property schema to one field. */
function mapSchema(name: string, path: FieldPath, raw: Schema, required: boolean, advanced: boolean, ctx: Ctx): Field {
	if (ctx.depth > MAX_DEPTH) return jsonField(name, path, raw, required, advanced, 'nested too deeply');
	// Shared references can fan out (ten branches to B, each to ten of C, ...): the whole form has a budget.
	if (--ctx.budget.fields < 0) return jsonField(name, path, raw, required, advanced, 'the schema is too large to show as a form');
	const norm = ctx.resolver.normalize(raw, new Set(ctx.refs));
	if (norm.problem) return jsonField(name, path, raw, required, advanced, norm.problem);
	const schema = norm.schema;
	const followed = new Set(ctx.refs);
	if (typeof raw['$ref'] === 'string') followed.add(raw['$ref']);
	const inner: Ctx = { ...ctx, depth: ctx.depth + 1, refs: followed };

	// anyOf / oneOf: drop {type: null} branches (nullable), collapse a single branch, else a variant switch.
	const union = (Array.isArray(schema['anyOf']) ? schema['anyOf'] : Array.isArray(schema['oneOf']) ? schema['oneOf'] : undefined) as
		unknown[] | undefined;
	if (union) {
		const branches = union.filter(isSchema).map((b) => ({ raw: b, norm: ctx.resolver.normalize(b, new Set(followed)) }));
		const isNull = (s: Schema) => s['type'] === 'null' || (Array.isArray(s['enum']) && s['enum'].length === 1 && s['enum'][0] === null);
		const real = branches.filter((b) => !isNull(b.norm.schema));
		const nullable = real.length < branches.length || typesOf(schema).nullable;
		const { anyOf: _a, oneOf: _o, ...siblings } = schema;
		const broken = real.find((b) => b.norm.problem);
		if (broken) return jsonField(name, path, siblings, required, advanced, broken.norm.problem!);
		const branchCtx = (b: Schema): Ctx => (typeof b['$ref'] === 'string' ? { ...inner, refs: new Set([...followed, b['$ref']]) } : inner);
		if (real.length === 1) {
			const merged = { ...real[0]!.norm.schema, ...siblings, ...(nullable ? { nullable: true } : {}) };
			return mapSchema(name, path, merged, required, advanced, branchCtx(real[0]!.raw));
		}
		// Every branch a constant: one enum.
		const consts = real.map((b) => b.norm.schema['const']);
		if (real.length > 0 && real.every((b) => 'const' in b.norm.schema)) {
			const options: EnumOption[] = consts.map((c) => ({ value: c as EnumOption['value'], label: enumLabel(c) }));
			return { ...base(name, path, siblings, required, nullable, advanced), kind: 'enum', options };
		}
		if (real.length === 0) return jsonField(name, path, schema, required, advanced, 'a union with no usable branch');
		const variants = real.map((b, i) => {
			const title = typeof b.norm.schema['title'] === 'string' && b.norm.schema['title'].trim() ? b.norm.schema['title'] : undefined;
			const label = title ? humanize(title) : b.norm.refName ? humanize(b.norm.refName) : (shapeLabel(b.norm.schema) ?? `Option ${i + 1}`);
			const field = mapSchema(name, path, { ...b.norm.schema, title: humanize(name) }, required, false, branchCtx(b.raw));
			return { label, field };
		});
		// Two branches of one shape (two lists, two objects) still need telling apart.
		const seen = new Map<string, number>();
		for (const v of variants) seen.set(v.label, (seen.get(v.label) ?? 0) + 1);
		variants.forEach((v, i) => {
			if ((seen.get(v.label) ?? 0) > 1) v.label = `${v.label} (${i + 1})`;
		});
		return { ...base(name, path, siblings, required, nullable, advanced), kind: 'variant', variants };
	}

	const { types, nullable } = typesOf(schema);
	const common = base(name, path, schema, required, nullable, advanced);

	if ('const' in schema)
		return { ...common, kind: 'enum', options: [{ value: schema['const'] as EnumOption['value'], label: enumLabel(schema['const']) }] };
	if (Array.isArray(schema['enum'])) {
		const values = (schema['enum'] as unknown[]).filter((v) => v !== null && ['string', 'number', 'boolean'].includes(typeof v));
		if (values.length === 0) return jsonField(name, path, schema, required, advanced, 'an enum of values a select cannot hold');
		return { ...common, kind: 'enum', options: values.map((v) => ({ value: v as EnumOption['value'], label: enumLabel(v) })) };
	}

	const type = types.length === 1 ? types[0] : types.length === 0 ? inferType(schema) : undefined;
	if (!type) return jsonField(name, path, schema, required, advanced, `several types (${types.join(', ')})`);
	switch (type) {
		case 'string': {
			const format = typeof schema['format'] === 'string' ? schema['format'] : undefined;
			if (format === 'password' || schema['writeOnly'] === true) return { ...common, kind: 'secret', ...stringLimits(schema) };
			if (format === 'uri' || format === 'url' || format === 'binary' || hintedMediaKind(schema) || looksLikeUrlName(name)) {
				return {
					...common,
					kind: 'media',
					transport: 'url',
					accept: mediaAcceptOf(name, schema, common.description ?? ''),
					mask: /mask/i.test(name)
				};
			}
			const long = (num(schema, 'maxLength') ?? 0) > TEXTAREA_MIN_LENGTH || /prompt|^text$|content|message|description/i.test(name);
			return { ...common, kind: long ? 'textarea' : 'text', ...stringLimits(schema), ...(format ? { format } : {}) };
		}
		case 'integer':
		case 'number': {
			const { min, max, exclusiveMin, exclusiveMax } = bounds(schema, type === 'integer');
			if (type === 'integer' && looksLikeSeed(name))
				return {
					...common,
					kind: 'seed',
					...(min !== undefined ? { min } : {}),
					...(max !== undefined ? { max: Math.min(max, Number.MAX_SAFE_INTEGER) } : {})
				};
			const step = num(schema, 'multipleOf') ?? (type === 'integer' ? 1 : undefined);
			return {
				...common,
				kind: type,
				...(min !== undefined ? { min } : {}),
				...(max !== undefined ? { max } : {}),
				...(step !== undefined ? { step } : {}),
				...(exclusiveMin ? { exclusiveMin } : {}),
				...(exclusiveMax ? { exclusiveMax } : {}),
				slider: min !== undefined && max !== undefined
			};
		}
		case 'boolean':
			return { ...common, kind: 'boolean' };
		case 'array': {
			const items = schema['items'];
			if (!isSchema(items)) return jsonField(name, path, schema, required, advanced, 'a list whose items are not described');
			const itemName = looksLikeUrlsName(name) ? name.replace(/s$/, '') : singular(name);
			const item = mapSchema(itemName, [...path, 0], { title: humanize(itemName), ...items }, true, false, inner);
			return {
				...common,
				kind: 'array',
				item,
				...(num(schema, 'minItems') !== undefined ? { minItems: num(schema, 'minItems') } : {}),
				...(num(schema, 'maxItems') !== undefined ? { maxItems: num(schema, 'maxItems') } : {})
			};
		}
		case 'object': {
			const props = schema['properties'];
			if (!isSchema(props) || Object.keys(props).length === 0)
				return jsonField(name, path, schema, required, advanced, 'a free-form object');
			return { ...common, kind: 'object', fields: mapProperties(schema, path, false, inner) };
		}
		default:
			return jsonField(name, path, schema, required, advanced, `type "${type}" has no editor`);
	}
}

function singular(name: string): string {
	return name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.endsWith('s') ? name.slice(0, -1) : `${name} item`;
}

/**
 * Property order: `x-fal-order-properties` on the object, else `x-order` on the properties, else the
 * document's own order (the provider's; required fields first would put a sampler above the prompt).
 */
export function propertyOrder(schema: Schema, resolve: (s: Schema) => Schema = (s) => s): string[] {
	const props = isSchema(schema['properties']) ? schema['properties'] : {};
	const names = Object.keys(props);
	const hinted = schema['x-fal-order-properties'];
	if (Array.isArray(hinted)) {
		const listed = hinted.filter((n): n is string => typeof n === 'string' && Object.hasOwn(props, n));
		return [...listed, ...names.filter((n) => !listed.includes(n))];
	}
	const xOrder = (n: string): number | undefined => {
		const p = props[n];
		if (!isSchema(p)) return undefined;
		const v = p['x-order'] ?? resolve(p)['x-order'];
		return typeof v === 'number' ? v : undefined;
	};
	if (names.some((n) => xOrder(n) !== undefined)) {
		return names
			.map((n, i) => ({ n, i, o: xOrder(n) ?? Number.MAX_SAFE_INTEGER }))
			.sort((a, b) => a.o - b.o || a.i - b.i)
			.map((x) => x.n);
	}
	return names;
}

function mapProperties(schema: Schema, path: FieldPath, top: boolean, ctx: Ctx): Field[] {
	const props = schema['properties'] as Schema;
	const requiredList = Array.isArray(schema['required']) ? schema['required'] : [];
	const required = new Set(requiredList);
	const fields = propertyOrder(schema).map((name) => {
		const prop = props[name];
		const isRequired = required.has(name);
		if (!isSchema(prop)) return jsonField(name, [...path, name], {}, isRequired, top && !isRequired, 'a property with no schema');
		return mapSchema(name, [...path, name], prop, isRequired, top && !isRequired, ctx);
	});
	return top && requiredList.length === 0 ? withNeededInputsFirst(fields) : fields;
}

/** Fields that hold what a person asks for: prompts and media (alone or in a list). */
function isNeededInput(field: Field): boolean {
	const name = String(field.path[field.path.length - 1] ?? '');
	if (/prompt|^text$|^query$|^question$|^message$|^input$/i.test(name) && (field.kind === 'text' || field.kind === 'textarea')) return true;
	return field.kind === 'media' || (field.kind === 'array' && field.item.kind === 'media');
}

/** How many fields the main area shows at least, when a schema marks none as required. */
const MAIN_AT_LEAST = 3;

/**
 * A schema with no `required` list (common for Cog models, where every input has a default)
 * would show an empty main area above all its inputs under "Advanced". Its prompts and media
 * inputs come first in the main area, then the earliest others (by `x-order`) up to a few.
 */
function withNeededInputsFirst(fields: Field[]): Field[] {
	const needed = fields.filter(isNeededInput);
	const fill = fields.filter((f) => !isNeededInput(f)).slice(0, Math.max(0, MAIN_AT_LEAST - needed.length));
	const main = new Set([...needed, ...fill]);
	return [...needed, ...fill, ...fields.filter((f) => !main.has(f))].map((f) => (main.has(f) ? { ...f, advanced: false, main: true } : f));
}

function collectDefaults(fields: Field[], into: unknown): unknown {
	let out = into;
	for (const f of fields) {
		if (f.default !== undefined) out = withValueAt(out, f.path, structuredClone(f.default));
		else if (f.kind === 'object' && f.required) out = collectDefaults(f.fields, out);
	}
	return out;
}

/** The whole body as one JSON field, where no form can be built from the schema. */
function wholeBodyAsJson(reason: string): Field {
	return { id: 'body', path: [], label: 'Input (JSON)', required: true, advanced: false, nullable: false, kind: 'json', reason };
}

/** The same form as one free JSON editor (the values kept), with a note saying why. */
export function jsonFallbackForm(form: SchemaForm, note: string): SchemaForm {
	return { ...form, group: { ...form.group, fields: [wholeBodyAsJson(note)] }, note };
}

/** The whole mapping: a document in, a form out. */
export function schemaToForm(doc: Schema, title = 'Input'): SchemaForm {
	const authored = doc[AUTHORED_FLAG] !== false;
	if (nestingDepth(doc, MAX_DOCUMENT_DEPTH) > MAX_DOCUMENT_DEPTH) {
		const problem = `The schema document nests deeper than ${MAX_DOCUMENT_DEPTH} levels.`;
		return { authored, group: { id: 'input', title, fields: [] }, inputSchema: null, defaults: {}, problem };
	}
	const body = requestBodySchema(doc);
	const components = isSchema(doc['components']) ? doc['components'] : undefined;
	const inputSchema = body ? { ...body, ...(components ? { components } : {}) } : null;
	const group: FieldGroup = { id: 'input', title, fields: [] };
	if (!body) return { authored, group, inputSchema: null, defaults: {}, problem: 'The document describes no JSON request body.' };
	if (!authored) {
		group.fields = [wholeBodyAsJson('the service publishes no input schema for this model; any JSON object is accepted')];
		return { authored, group, inputSchema, defaults: {} };
	}
	const resolver = new Resolver(doc);
	const norm = resolver.normalize(body);
	const root = norm.schema;
	if (norm.problem || !isSchema(root['properties'])) {
		group.fields = [wholeBodyAsJson(norm.problem ?? 'the input is not an object with properties')];
		return { authored, group, inputSchema, defaults: {} };
	}
	group.fields = mapProperties(root, [], true, {
		resolver,
		depth: 0,
		refs: new Set(typeof body['$ref'] === 'string' ? [body['$ref']] : []),
		budget: { fields: MAX_FIELDS }
	});
	return { authored, group, inputSchema, defaults: collectDefaults(group.fields, {}) as Record<string, unknown> };
}
