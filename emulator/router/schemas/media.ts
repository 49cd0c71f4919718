/** Video (fal-style and Veo-style) and text-to-speech families. */
import type { JsonSchema } from './dialect';
import { binary, ref, withXOrder, type SchemaParts } from './parts';

const prompt: JsonSchema = {
	type: 'string',
	description: 'What happens in the clip.',
	minLength: 1,
	maxLength: 2500,
	examples: ['A paper boat drifting down a rain-soaked street, tracking shot']
};

const fileRef = (description: string): JsonSchema => ({
	type: 'object',
	description,
	required: ['url'],
	properties: { url: { type: 'string', format: 'uri' }, content_type: { type: 'string' }, file_name: { type: 'string' } }
});

function falVideoOutput(withLastFrame: boolean): SchemaParts['output'] {
	const properties: JsonSchema = { video: fileRef('The finished video (animated WebP in the emulator).') };
	if (withLastFrame) properties['last_frame'] = fileRef('The last frame as an image.');
	return { mediaType: 'application/json', schema: { type: 'object', required: ['video'], properties } };
}

/** fal/Kling-style video: duration as a string enum, aspect ratio, optional (or required) start image. */
export function falVideo(startImageRequired: boolean, withLastFrame: boolean): SchemaParts {
	const properties: Record<string, JsonSchema> = {
		prompt,
		image_url: { type: 'string', format: 'uri', description: 'Start frame.', examples: ['https://example.com/start.png'] },
		duration: { type: 'string', enum: ['5', '10'], default: '5', description: 'Clip length in seconds.' },
		aspect_ratio: { type: 'string', enum: ['16:9', '9:16', '1:1'], default: '16:9' },
		negative_prompt: { type: 'string', default: 'blur, distort, and low quality' },
		cfg_scale: { type: 'number', minimum: 0, maximum: 1, default: 0.5 }
	};
	return {
		input: 'VideoInput',
		components: {
			VideoInput: {
				type: 'object',
				required: startImageRequired ? ['prompt', 'image_url'] : ['prompt'],
				properties,
				'x-fal-order-properties': Object.keys(properties)
			}
		},
		output: falVideoOutput(withLastFrame)
	};
}

/** Veo-style: `oneOf` for the start image (inline bytes or a storage URI), result in `response.videos[]`. */
export function veoVideo(): SchemaParts {
	return {
		input: 'VeoRequest',
		components: {
			InlineImage: {
				type: 'object',
				required: ['bytesBase64Encoded', 'mimeType'],
				properties: {
					bytesBase64Encoded: { type: 'string', contentEncoding: 'base64' },
					mimeType: { type: 'string', enum: ['image/png', 'image/jpeg'] }
				},
				additionalProperties: false
			},
			StorageImage: {
				type: 'object',
				required: ['gcsUri'],
				properties: { gcsUri: { type: 'string', pattern: '^gs://' }, mimeType: { type: 'string' } },
				additionalProperties: false
			},
			VeoRequest: {
				type: 'object',
				required: ['prompt'],
				properties: withXOrder({
					prompt,
					image: { oneOf: [ref('InlineImage'), ref('StorageImage')], description: 'Optional start frame.' },
					durationSeconds: { type: 'integer', enum: [5, 6, 8], default: 8 },
					aspectRatio: { type: 'string', enum: ['16:9', '9:16'], default: '16:9' },
					generateAudio: { type: 'boolean', default: false },
					negativePrompt: { type: ['string', 'null'] },
					seed: { type: ['integer', 'null'], minimum: 0, maximum: 4294967295 }
				})
			}
		},
		output: {
			mediaType: 'application/json',
			schema: {
				type: 'object',
				properties: {
					response: {
						type: 'object',
						properties: {
							videos: {
								type: 'array',
								items: {
									type: 'object',
									properties: {
										bytesBase64Encoded: { type: 'string' },
										gcsUri: { type: 'string', format: 'uri' },
										mimeType: { type: 'string' }
									}
								}
							}
						}
					}
				}
			}
		}
	};
}

export const TTS_VOICES = ['alloy', 'ember', 'juniper', 'sage', 'river'] as const;

export function textToSpeech(): SchemaParts {
	return {
		input: 'SpeechRequest',
		components: {
			SpeechRequest: {
				type: 'object',
				required: ['text'],
				properties: withXOrder({
					text: { type: 'string', minLength: 1, maxLength: 5000, description: 'The text to speak.', examples: ['Your run has finished.'] },
					voice: { type: 'string', enum: [...TTS_VOICES], default: 'alloy' },
					speed: { type: 'number', minimum: 0.5, maximum: 2, default: 1 },
					language: { type: ['string', 'null'], pattern: '^[a-z]{2}(-[A-Z]{2})?$', examples: ['en-US'] }
				})
			}
		},
		output: binary('audio/wav')
	};
}
