/**
 * Schemas shaped like real Cog (Replicate) and hinted fal documents: Cog inputs carry `x-order`
 * and no `required` list, media inputs are `format: uri`, token streams are arrays marked
 * `x-cog-array-display: concatenate`; fal marks its file inputs with `_fal_ui_field` / `ui.field`.
 */
import type { JsonSchema } from './dialect';
import type { SchemaParts } from './parts';

/** Cog-style image-to-image: every input optional, ordered by `x-order`, prompt and image not first in declaration. */
export function cogImage(): SchemaParts {
	return {
		input: 'Input',
		components: {
			Input: {
				type: 'object',
				title: 'Input',
				properties: {
					seed: { type: 'integer', title: 'Seed', 'x-order': 6, description: 'Random seed. Leave blank to randomize the seed' },
					width: { type: 'integer', title: 'Width', default: 1024, 'x-order': 3, description: 'Width of output image' },
					height: { type: 'integer', title: 'Height', default: 1024, 'x-order': 4, description: 'Height of output image' },
					image: { type: 'string', title: 'Image', format: 'uri', 'x-order': 2, description: 'Input image for img2img or inpaint mode' },
					prompt: {
						type: 'string',
						title: 'Prompt',
						default: 'An astronaut riding a rainbow unicorn',
						'x-order': 0,
						description: 'Input prompt'
					},
					negative_prompt: { type: 'string', title: 'Negative Prompt', default: '', 'x-order': 1, description: 'Input Negative Prompt' },
					prompt_strength: {
						type: 'number',
						title: 'Prompt Strength',
						default: 0.8,
						minimum: 0,
						maximum: 1,
						'x-order': 5,
						description: 'Prompt strength when using img2img / inpaint. 1.0 corresponds to full destruction of information in image'
					},
					num_outputs: { type: 'integer', title: 'Num Outputs', default: 1, minimum: 1, maximum: 4, 'x-order': 7 }
				}
			}
		},
		output: {
			mediaType: 'application/json',
			schema: {
				type: 'object',
				properties: { images: { type: 'array', items: { type: 'object', properties: { url: { type: 'string', format: 'uri' } } } } }
			}
		}
	};
}

/** Cog-style language model: no `required`, output a token stream to concatenate. */
export function cogLanguage(): SchemaParts {
	return {
		input: 'Input',
		components: {
			Input: {
				type: 'object',
				title: 'Input',
				properties: {
					top_p: { type: 'number', title: 'Top P', default: 0.9, 'x-order': 4 },
					prompt: { type: 'string', title: 'Prompt', default: '', 'x-order': 0 },
					max_tokens: { type: 'integer', title: 'Max Tokens', default: 512, 'x-order': 2 },
					temperature: { type: 'number', title: 'Temperature', default: 0.6, 'x-order': 3 },
					system_prompt: { type: 'string', title: 'System Prompt', default: 'You are a helpful assistant', 'x-order': 1 }
				}
			}
		},
		output: {
			mediaType: 'application/json',
			schema: {
				type: 'object',
				properties: {
					output: {
						type: 'array',
						title: 'Output',
						items: { type: 'string' },
						'x-cog-array-type': 'iterator',
						'x-cog-array-display': 'concatenate'
					}
				}
			}
		}
	};
}

const falFile = (extra: JsonSchema): JsonSchema => ({ type: 'string', ...extra });

/** fal-style image-to-video whose file inputs say their media kind by hints, not by their names. */
export function falHintedVideo(): SchemaParts {
	const properties: Record<string, JsonSchema> = {
		prompt: { type: 'string', title: 'Prompt', description: 'What happens in the clip.', examples: ['The camera slowly pulls back'] },
		start_url: falFile({ title: 'Start', description: 'The first frame of the video.', _fal_ui_field: 'image' }),
		end_url: falFile({ title: 'End', description: 'The last frame of the video.', ui: { field: 'image' } }),
		soundtrack: falFile({ title: 'Soundtrack', format: 'uri', contentMediaType: 'audio/mpeg', description: 'Music laid under the video.' }),
		duration: { type: 'string', enum: ['5', '10'], default: '5', title: 'Duration' }
	};
	return {
		input: 'HintedVideoInput',
		components: {
			HintedVideoInput: {
				type: 'object',
				required: ['prompt', 'start_url'],
				properties,
				'x-fal-order-properties': Object.keys(properties)
			}
		},
		output: {
			mediaType: 'application/json',
			schema: {
				type: 'object',
				required: ['video'],
				properties: { video: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } } }
			}
		}
	};
}
