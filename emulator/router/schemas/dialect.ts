/**
 * Schemas are written once in JSON Schema 2020-12 form (type arrays for nullable, `examples`) and
 * rendered into the document's dialect. OpenAPI 3.0 documents get `nullable` and `example` instead;
 * the `3.1-as-3.0` dialect keeps the 3.1 keywords under a 3.0 label, as some real providers do.
 * `toJsonSchema` reads any of them back into 2020-12 for validation.
 */
import type { SchemaDialect } from '../catalog';

export type JsonSchema = { [key: string]: unknown };

function isRecord(value: unknown): value is JsonSchema {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapSchema(value: unknown, visit: (node: JsonSchema) => JsonSchema): unknown {
	if (Array.isArray(value)) return value.map((v) => mapSchema(v, visit));
	if (!isRecord(value)) return value;
	const out: JsonSchema = {};
	for (const [k, v] of Object.entries(value)) {
		// `examples`, `default`, `enum` and `const` hold instance values, not schemas.
		out[k] = k === 'examples' || k === 'default' || k === 'enum' || k === 'const' || k === 'example' ? v : mapSchema(v, visit);
	}
	return visit(out);
}

/** 2020-12 form into OpenAPI 3.0 form: `type: [t, "null"]` becomes `nullable`, `examples` becomes `example`. */
function to30(node: JsonSchema): JsonSchema {
	const out = { ...node };
	if (Array.isArray(out['type']) && out['type'].includes('null')) {
		const rest = (out['type'] as string[]).filter((t) => t !== 'null');
		out['type'] = rest.length === 1 ? rest[0] : rest;
		out['nullable'] = true;
		if (Array.isArray(out['enum']) && !(out['enum'] as unknown[]).includes(null)) out['enum'] = [...(out['enum'] as unknown[]), null];
	}
	if (Array.isArray(out['examples'])) {
		out['example'] = (out['examples'] as unknown[])[0];
		delete out['examples'];
	}
	if (typeof out['exclusiveMinimum'] === 'number') {
		out['minimum'] = out['exclusiveMinimum'];
		out['exclusiveMinimum'] = true;
	}
	if (typeof out['exclusiveMaximum'] === 'number') {
		out['maximum'] = out['exclusiveMaximum'];
		out['exclusiveMaximum'] = true;
	}
	return out;
}

export function renderDialect(schemas: JsonSchema, dialect: SchemaDialect): JsonSchema {
	return dialect === '3.0' ? (mapSchema(schemas, to30) as JsonSchema) : schemas;
}

/** Any dialect back into 2020-12: the validator's input. Tolerates 3.1 keywords in a 3.0 document. */
function from30(node: JsonSchema): JsonSchema {
	const out = { ...node };
	if (out['nullable'] === true) {
		const t = out['type'];
		if (typeof t === 'string') out['type'] = [t, 'null'];
		else if (Array.isArray(t) && !t.includes('null')) out['type'] = [...t, 'null'];
		if (Array.isArray(out['enum']) && !(out['enum'] as unknown[]).includes(null)) out['enum'] = [...(out['enum'] as unknown[]), null];
	}
	delete out['nullable'];
	delete out['example'];
	if (out['exclusiveMinimum'] === true && typeof out['minimum'] === 'number') {
		out['exclusiveMinimum'] = out['minimum'];
		delete out['minimum'];
	} else if (typeof out['exclusiveMinimum'] === 'boolean') delete out['exclusiveMinimum'];
	if (out['exclusiveMaximum'] === true && typeof out['maximum'] === 'number') {
		out['exclusiveMaximum'] = out['maximum'];
		delete out['maximum'];
	} else if (typeof out['exclusiveMaximum'] === 'boolean') delete out['exclusiveMaximum'];
	return out;
}

export function toJsonSchema(schema: unknown): JsonSchema {
	const out = mapSchema(schema, from30);
	return isRecord(out) ? out : {};
}
