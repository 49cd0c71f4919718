/** The pieces one schema family returns: its components, the input component's name and the output. */
import type { JsonSchema } from './dialect';

export interface SchemaParts {
	/** Name under `components.schemas` of the request body schema. */
	input: string;
	components: Record<string, JsonSchema>;
	/** The authored `200` response, or undefined when the provider publishes none. */
	output?: { mediaType: string; schema: JsonSchema };
}

/** Adds `x-order` (cog / Replicate style) to each property in declaration order. */
export function withXOrder(properties: Record<string, JsonSchema>): Record<string, JsonSchema> {
	const out: Record<string, JsonSchema> = {};
	Object.entries(properties).forEach(([name, schema], i) => (out[name] = { ...schema, 'x-order': i }));
	return out;
}

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The way pydantic-generated schemas attach a description to a referenced type. */
export const refWith = (name: string, extra: JsonSchema): JsonSchema => ({ allOf: [ref(name)], ...extra });

export const binary = (mediaType: string): SchemaParts['output'] => ({ mediaType, schema: { type: 'string', format: 'binary' } });
