/** Image families: fal-style text-to-image, Stability-style (3.0), Imagen-style, edits, LoRA, upscale. */
import type { JsonSchema } from './dialect';
import { binary, ref, refWith, withXOrder, type SchemaParts } from './parts';

const prompt: JsonSchema = {
	type: 'string',
	title: 'Prompt',
	description: 'What to see in the image: the subject, its setting, the light and the style.',
	minLength: 1,
	maxLength: 4000,
	examples: ['A cinematic photo of a lighthouse at dusk, volumetric fog']
};

const imageSizeComponents: Record<string, JsonSchema> = {
	ImageSizePreset: {
		type: 'string',
		title: 'ImageSizePreset',
		enum: ['square_hd', 'square', 'portrait_4_3', 'portrait_16_9', 'landscape_4_3', 'landscape_16_9']
	},
	ImageSize: {
		type: 'object',
		title: 'ImageSize',
		required: ['width', 'height'],
		properties: {
			width: { type: 'integer', title: 'Width', minimum: 64, maximum: 2048, default: 512, multipleOf: 8 },
			height: { type: 'integer', title: 'Height', minimum: 64, maximum: 2048, default: 512, multipleOf: 8 }
		},
		additionalProperties: false
	},
	OutputFormat: { type: 'string', title: 'OutputFormat', enum: ['jpeg', 'png'] },
	Image: {
		type: 'object',
		title: 'Image',
		required: ['url', 'width', 'height', 'content_type'],
		properties: {
			url: { type: 'string', format: 'uri' },
			width: { type: 'integer' },
			height: { type: 'integer' },
			content_type: { type: 'string', examples: ['image/png'] }
		}
	}
};

const falImageOutput: SchemaParts['output'] = {
	mediaType: 'application/json',
	schema: {
		type: 'object',
		required: ['images', 'seed'],
		properties: {
			images: { type: 'array', items: ref('Image') },
			seed: { type: 'integer', description: 'The seed actually used.' },
			has_nsfw_concepts: { type: 'array', items: { type: 'boolean' } },
			prompt: { type: 'string' },
			draft: refWith('Image', { description: 'Draft-cache preview, when the model keeps one.' })
		}
	}
};

function falCommon(): Record<string, JsonSchema> {
	return {
		image_size: {
			title: 'Image Size',
			description: 'A preset, or a custom width and height.',
			anyOf: [ref('ImageSizePreset'), ref('ImageSize')],
			default: 'landscape_4_3'
		},
		num_inference_steps: { type: 'integer', title: 'Steps', minimum: 1, maximum: 50, default: 28 },
		guidance_scale: { type: 'number', title: 'Guidance scale (CFG)', minimum: 1, maximum: 20, default: 3.5 },
		seed: { type: ['integer', 'null'], title: 'Seed', description: 'Same seed and prompt give the same image.', minimum: 0, default: null },
		num_images: { type: 'integer', title: 'Number of images', minimum: 1, maximum: 4, default: 1 },
		enable_safety_checker: { type: 'boolean', title: 'Safety checker', default: true },
		output_format: refWith('OutputFormat', { default: 'jpeg', description: 'Encoding of the result images.' })
	};
}

function falObject(title: string, required: string[], properties: Record<string, JsonSchema>): JsonSchema {
	return { type: 'object', title, required, properties, 'x-fal-order-properties': Object.keys(properties), additionalProperties: false };
}

export function falTextToImage(): SchemaParts {
	return {
		input: 'TextToImageInput',
		components: {
			...imageSizeComponents,
			TextToImageInput: falObject('TextToImageInput', ['prompt'], {
				prompt,
				negative_prompt: { type: 'string', title: 'Negative prompt', default: '' },
				...falCommon()
			})
		},
		output: falImageOutput
	};
}

const imageUrl = (description: string): JsonSchema => ({
	type: 'string',
	format: 'uri',
	description,
	examples: ['https://example.com/input.png']
});

export function falImageToImage(): SchemaParts {
	return {
		input: 'ImageToImageInput',
		components: {
			...imageSizeComponents,
			ImageToImageInput: falObject('ImageToImageInput', ['prompt', 'image_url'], {
				prompt,
				image_url: imageUrl('The image to transform.'),
				strength: { type: 'number', title: 'Strength', minimum: 0.01, maximum: 1, default: 0.95 },
				...falCommon()
			})
		},
		output: falImageOutput
	};
}

export function falInpainting(): SchemaParts {
	return {
		input: 'InpaintingInput',
		components: {
			...imageSizeComponents,
			InpaintingInput: falObject('InpaintingInput', ['prompt', 'image_url', 'mask_url'], {
				prompt,
				image_url: imageUrl('The image to edit.'),
				mask_url: imageUrl('White pixels are repainted, black pixels kept.'),
				...falCommon()
			})
		},
		output: falImageOutput
	};
}

export function falLora(): SchemaParts {
	return {
		input: 'LoraInput',
		components: {
			...imageSizeComponents,
			LoraWeight: {
				type: 'object',
				title: 'LoraWeight',
				required: ['path'],
				properties: {
					path: { type: 'string', format: 'uri', description: 'URL of the LoRA weights (.safetensors).' },
					scale: { type: 'number', minimum: 0, maximum: 4, default: 1, description: 'How strongly the LoRA applies.' }
				}
			},
			LoraInput: falObject('LoraInput', ['prompt'], {
				prompt,
				loras: { type: 'array', title: 'LoRAs', items: ref('LoraWeight'), maxItems: 3, default: [] },
				...falCommon()
			})
		},
		output: falImageOutput
	};
}

/** Stability-style: OpenAPI 3.0, raw image bytes as the body. */
export function stabilityTextToImage(): SchemaParts {
	return {
		input: 'GenerateRequest',
		components: {
			GenerateRequest: {
				type: 'object',
				required: ['prompt'],
				properties: withXOrder({
					prompt,
					negative_prompt: { type: ['string', 'null'], maxLength: 10000, default: null },
					aspect_ratio: { type: 'string', enum: ['16:9', '1:1', '21:9', '2:3', '3:2', '4:5', '5:4', '9:16', '9:21'], default: '1:1' },
					cfg_scale: { type: 'number', exclusiveMinimum: 0, maximum: 10, default: 4, examples: [4] },
					seed: { type: ['integer', 'null'], minimum: 0, maximum: 4294967294, examples: [42] },
					style_preset: { type: ['string', 'null'], enum: ['photographic', 'anime', 'digital-art', 'line-art', null] },
					output_format: { type: 'string', enum: ['png', 'jpeg', 'webp'], default: 'png' }
				})
			}
		},
		output: binary('image/png')
	};
}

export function stabilityInpainting(): SchemaParts {
	return {
		input: 'InpaintRequest',
		components: {
			InpaintRequest: {
				type: 'object',
				required: ['prompt', 'image_url', 'mask_url'],
				properties: withXOrder({
					prompt,
					image_url: imageUrl('The image to edit.'),
					mask_url: imageUrl('The mask; white is repainted.'),
					grow_mask: { type: 'integer', minimum: 0, maximum: 20, default: 5 },
					seed: { type: ['integer', 'null'], minimum: 0, examples: [7] }
				})
			}
		},
		output: binary('image/png')
	};
}

export function stabilityUpscale(): SchemaParts {
	return {
		input: 'UpscaleRequest',
		components: {
			UpscaleBase: {
				type: 'object',
				required: ['image_url'],
				properties: { image_url: imageUrl('The image to upscale.') }
			},
			UpscaleRequest: {
				allOf: [
					ref('UpscaleBase'),
					{
						type: 'object',
						properties: withXOrder({
							scale: { type: 'integer', enum: [2, 4], default: 2 },
							creativity: { type: 'number', minimum: 0, maximum: 0.35, default: 0.3, examples: [0.3] },
							prompt: { ...prompt, description: 'Optional guidance for the added detail.' }
						})
					}
				]
			}
		},
		output: binary('image/png')
	};
}

/** Imagen-style: camelCase fields, inline base64 predictions. */
export function imagenTextToImage(): SchemaParts {
	return {
		input: 'ImagenRequest',
		components: {
			ImagenRequest: {
				type: 'object',
				required: ['prompt'],
				properties: withXOrder({
					prompt,
					sampleCount: { type: 'integer', minimum: 1, maximum: 4, default: 1 },
					aspectRatio: { type: 'string', enum: ['1:1', '3:4', '4:3', '9:16', '16:9'], default: '1:1' },
					personGeneration: { type: 'string', enum: ['dont_allow', 'allow_adult'], default: 'allow_adult' },
					seed: { type: ['integer', 'null'], minimum: 0 }
				})
			}
		},
		output: {
			mediaType: 'application/json',
			schema: {
				type: 'object',
				properties: {
					predictions: {
						type: 'array',
						items: {
							type: 'object',
							properties: { bytesBase64Encoded: { type: 'string', contentEncoding: 'base64' }, mimeType: { type: 'string' } }
						}
					}
				}
			}
		}
	};
}
