/**
 * Outputs a Cog model streams token by token: an array of strings whose schema says
 * `x-cog-array-display: concatenate` is one text, joined without separators, not a list.
 */
import type { Json } from '../../core/protocol/json';
import { isSchema, outputSchemaOf, resolveLocalRef, type Schema } from '../../core/protocol/openapi';

export interface JoinedText {
	/** Where in the JSON result ("" for the whole result, else the property name). */
	path: string;
	text: string;
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
