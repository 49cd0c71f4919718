/**
 * Outputs a Cog model streams token by token: an array of strings whose schema says
 * `x-cog-array-display: concatenate` is one text, joined without separators, not a list.
 */
import type { Json } from '../../core/protocol/json';

type Schema = { [key: string]: unknown };

export interface JoinedText {
	/** Where in the JSON result ("" for the whole result, else the property name). */
	path: string;
	text: string;
}

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows one local `$ref` hop at a time (a few at most), else returns the schema itself. */
export function resolveLocalRef(document: Schema, schema: unknown): Schema | undefined {
	let current = schema;
	for (let hops = 0; hops < 8 && isSchema(current) && typeof current['$ref'] === 'string'; hops++) {
		const ref = current['$ref'];
		if (!ref.startsWith('#/')) return undefined;
		let at: unknown = document;
		for (const raw of ref.slice(2).split('/')) {
			const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
			at = isSchema(at) && Object.hasOwn(at, key) ? at[key] : undefined;
		}
		current = at;
	}
	return isSchema(current) ? current : undefined;
}

/** The schema of a model's successful output, from its OpenAPI document (the first `200` content). */
export function outputSchemaOf(document: Schema): Schema | undefined {
	const paths = document['paths'];
	if (!isSchema(paths)) return undefined;
	for (const item of Object.values(paths)) {
		const ok =
			isSchema(item) && isSchema(item['post']) && isSchema(item['post']['responses']) ? item['post']['responses']['200'] : undefined;
		const content = isSchema(ok) ? ok['content'] : undefined;
		if (!isSchema(content)) continue;
		for (const media of Object.values(content)) {
			const schema = isSchema(media) ? resolveLocalRef(document, media['schema']) : undefined;
			if (schema) return schema;
		}
	}
	return undefined;
}

const concatenates = (schema: Schema | undefined) => schema?.['x-cog-array-display'] === 'concatenate';
const isTokens = (value: Json | undefined): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** The token streams of a JSON result, each joined into text, in the order of the output schema. */
export function joinedStreams(document: Schema, json: Json): JoinedText[] {
	const schema = outputSchemaOf(document);
	if (!schema) return [];
	if (concatenates(schema)) return isTokens(json) ? [{ path: '', text: json.join('') }] : [];
	const props = schema['properties'];
	if (!isSchema(props) || !isSchema(json as unknown) || Array.isArray(json)) return [];
	const out: JoinedText[] = [];
	const record = json as { [key: string]: Json };
	for (const [name, prop] of Object.entries(props)) {
		const value = Object.hasOwn(record, name) ? record[name] : undefined;
		if (concatenates(resolveLocalRef(document, prop)) && isTokens(value)) out.push({ path: name, text: value.join('') });
	}
	return out;
}
