/** An LLM-style text model with a JSON output, and the unauthored document of community models. */
import type { JsonSchema } from './dialect';
import { ref, withXOrder, type SchemaParts } from './parts';

export function llm(): SchemaParts {
	return {
		input: 'CompletionRequest',
		components: {
			Message: {
				type: 'object',
				required: ['role', 'content'],
				properties: { role: { type: 'string', enum: ['system', 'user', 'assistant'] }, content: { type: 'string' } }
			},
			TextFormat: { type: 'object', required: ['type'], properties: { type: { const: 'text' } }, additionalProperties: false },
			JsonObjectFormat: { type: 'object', required: ['type'], properties: { type: { const: 'json_object' } }, additionalProperties: false },
			JsonSchemaFormat: {
				type: 'object',
				required: ['type', 'json_schema'],
				properties: { type: { const: 'json_schema' }, json_schema: { type: 'object' } },
				additionalProperties: false
			},
			CompletionRequest: {
				type: 'object',
				required: ['prompt'],
				properties: withXOrder({
					prompt: { type: 'string', minLength: 1, maxLength: 100000, examples: ['List three colours as JSON.'] },
					system_prompt: { type: ['string', 'null'], description: 'Instructions placed before the prompt.' },
					history: { type: 'array', items: ref('Message'), default: [] },
					temperature: { type: 'number', minimum: 0, maximum: 2, default: 0.7 },
					max_tokens: { type: 'integer', minimum: 1, maximum: 8192, default: 1024 },
					response_format: {
						oneOf: [ref('TextFormat'), ref('JsonObjectFormat'), ref('JsonSchemaFormat')],
						default: { type: 'text' },
						description: 'Ask for JSON to get a parsed `json` member in the result.'
					}
				})
			}
		},
		output: {
			mediaType: 'application/json',
			schema: {
				type: 'object',
				required: ['output', 'usage'],
				properties: {
					output: { type: 'string' },
					json: { description: 'Parsed output when a JSON format was requested.' },
					usage: {
						type: 'object',
						properties: { input_tokens: { type: 'integer' }, output_tokens: { type: 'integer' } }
					}
				}
			}
		}
	};
}

export function unauthored(): SchemaParts {
	const anyObject: JsonSchema = { type: 'object', additionalProperties: true, description: 'Passed to the provider unchanged.' };
	return { input: 'Input', components: { Input: anyObject }, output: { mediaType: '*/*', schema: {} } };
}

/**
 * A text model whose document has a self-referencing `$ref` (an alias of itself, as some schema
 * generators emit for a recursive type alias): no validator can compile it, so clients must fall
 * back to a free JSON editor rather than fail.
 */
export function outline(): SchemaParts {
	return {
		input: 'OutlineRequest',
		components: {
			Outline: { $ref: '#/components/schemas/Outline', description: 'A nested outline of the text to write.' },
			OutlineRequest: {
				type: 'object',
				required: ['prompt'],
				properties: withXOrder({
					prompt: { type: 'string', minLength: 1, examples: ['An essay about lighthouses.'] },
					outline: ref('Outline')
				})
			}
		},
		output: { mediaType: 'application/json', schema: { type: 'object', properties: { output: { type: 'string' } } } }
	};
}
