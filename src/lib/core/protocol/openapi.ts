/**
 * The one walker of a model's OpenAPI document: its operations, their request body and `200` output
 * schemas, and local `$ref`s. The form mapping, the catalog summaries and the token streams all read
 * the document through it. Pure; never throws on an odd document (missing parts are undefined).
 */

export type Schema = { [key: string]: unknown };

/** A JSON object (what every part of a schema document is, when it is not a list or a scalar). */
export function isSchema(value: unknown): value is Schema {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const BODY_METHODS = ['post', 'put', 'patch'] as const;
const MAX_REF_HOPS = 8;

/** The operations that take a body (`post`, `put`, `patch`), in the document's order. */
export function* operations(doc: Schema): Generator<Schema> {
	const paths = doc['paths'];
	if (!isSchema(paths)) return;
	for (const item of Object.values(paths)) {
		if (!isSchema(item)) continue;
		for (const method of BODY_METHODS) {
			const op = item[method];
			if (isSchema(op)) yield op;
		}
	}
}

/** The first operation with a body: where a model's inputs and outputs are described. */
export function firstOperation(doc: Schema): Schema | undefined {
	return operations(doc).next().value ?? undefined;
}

/** The target of a local JSON pointer (`#/components/schemas/X`); undefined for remote or broken ones. */
export function pointerTarget(doc: Schema, ref: string): Schema | undefined {
	if (!ref.startsWith('#/')) return undefined;
	let at: unknown = doc;
	for (const raw of ref.slice(2).split('/')) {
		const key = pointerKey(raw);
		if (key === undefined || !isSchema(at) || !Object.hasOwn(at, key)) return undefined;
		at = at[key];
	}
	return isSchema(at) ? at : undefined;
}

function pointerKey(raw: string): string | undefined {
	try {
		return decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
	} catch {
		return undefined; // a malformed %-escape names nothing
	}
}

/** Follows local `$ref`s a few hops at most, else returns the schema itself; undefined when it is no schema. */
export function resolveLocalRef(doc: Schema, schema: unknown): Schema | undefined {
	let current = schema;
	for (let hops = 0; hops < MAX_REF_HOPS && isSchema(current) && typeof current['$ref'] === 'string'; hops++) {
		current = pointerTarget(doc, current['$ref']);
	}
	return isSchema(current) ? current : undefined;
}

/** The JSON media of a `content` map: `application/json`, else the first `…json` type. */
function jsonMedia(content: unknown): Schema | undefined {
	if (!isSchema(content)) return undefined;
	const media = content['application/json'] ?? Object.entries(content).find(([t]) => t.endsWith('json'))?.[1];
	return isSchema(media) ? media : undefined;
}

/** The JSON request body schema of one operation, its `$ref`s followed. */
export function operationBody(doc: Schema, op: Schema | undefined): Schema | undefined {
	const media = jsonMedia(resolveLocalRef(doc, op?.['requestBody'])?.['content']);
	return resolveLocalRef(doc, media?.['schema']);
}

/**
 * The request body schema of the first operation that has one, as written (a `$ref` left for the
 * caller to follow, so the form mapping can name the component it comes from).
 */
export function requestBodySchema(doc: Schema): Schema | undefined {
	for (const op of operations(doc)) {
		const body = op['requestBody'];
		const media = jsonMedia(isSchema(body) ? body['content'] : undefined);
		if (isSchema(media?.['schema'])) return media['schema'];
	}
	return undefined;
}

/** The `content` map of an operation's successful (`200`) response, its `$ref` followed. */
export function okContent(doc: Schema, op: Schema | undefined): Schema | undefined {
	const responses = op?.['responses'];
	const content = isSchema(responses) ? resolveLocalRef(doc, responses['200'])?.['content'] : undefined;
	return isSchema(content) ? content : undefined;
}

/** The schema of a model's successful output: the first `200` content with a schema. */
export function outputSchemaOf(doc: Schema): Schema | undefined {
	for (const op of operations(doc)) {
		for (const media of Object.values(okContent(doc, op) ?? {})) {
			const schema = isSchema(media) ? resolveLocalRef(doc, media['schema']) : undefined;
			if (schema) return schema;
		}
	}
	return undefined;
}
