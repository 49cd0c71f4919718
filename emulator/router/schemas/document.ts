/**
 * A model's standalone OpenAPI document: input under `requestBody`, authored output under `200`.
 * Built once per catalog build; the served bytes and their strong ETag are fixed with it.
 */
import { createHash } from 'node:crypto';
import { COG_PROVIDER, type CatalogModel } from '../catalog';
import { renderDialect, type JsonSchema } from './dialect';
import type { SchemaParts } from './parts';
import {
	falImageToImage,
	falInpainting,
	falLora,
	falTextToImage,
	imagenTextToImage,
	stabilityInpainting,
	stabilityTextToImage,
	stabilityUpscale
} from './image';
import { cogImage, cogLanguage, falHintedVideo } from './cog';
import { falVideo, textToSpeech, veoVideo } from './media';
import { llm, outline, unauthored } from './text';

export const AUTHORED_FLAG = 'x-service-input-schema-authored';

export function schemaParts(model: CatalogModel): SchemaParts {
	switch (model.kind) {
		case 'text-to-image':
			if (model.provider === 'stratus') return stabilityTextToImage();
			if (model.provider === 'vertex') return imagenTextToImage();
			return falTextToImage();
		case 'image-to-image':
			return model.provider === COG_PROVIDER ? cogImage() : falImageToImage();
		case 'inpainting':
			return model.provider === 'stratus' ? stabilityInpainting() : falInpainting();
		case 'lora':
			return falLora();
		case 'upscale':
			return stabilityUpscale();
		case 'video':
			return model.provider === 'vertex' ? veoVideo() : falVideo(false, model.extraAsset && model.provider === 'kestrel');
		case 'image-to-video':
			if (model.model.startsWith('keyframes')) return falHintedVideo();
			return falVideo(true, model.extraAsset && model.provider === 'kestrel');
		case 'tts':
			return textToSpeech();
		case 'llm':
			if (model.provider === COG_PROVIDER) return cogLanguage();
			return model.model === 'quill-outline' ? outline() : llm();
		case 'unauthored':
			return unauthored();
	}
}

/** What each kind does, in the words a provider's page would use (the first sentence is the summary). */
const KIND_WORDS: Record<CatalogModel['kind'], string> = {
	'text-to-image': 'Turns a written prompt into a picture. Fast drafts or detailed renders, several per call.',
	'image-to-image': 'Restyles a picture you give it, guided by a prompt. Keeps the composition, changes the look.',
	inpainting: 'Repaints the masked part of a picture from a prompt. The rest stays untouched.',
	lora: 'Draws pictures in a style of your own, from LoRA weights you link. Good for characters and brands.',
	upscale: 'Enlarges a picture up to four times, adding fine detail. Faces and text stay sharp.',
	video: 'Makes a short clip from a written prompt. Five or ten seconds, with camera motion.',
	'image-to-video': 'Animates a still picture into a short clip. The picture is the first frame.',
	tts: 'Reads your text aloud as natural speech. Many voices and languages.',
	llm: 'A chat model that answers questions and writes. Give it a prompt, get text back.',
	unauthored: 'A community upload. Its author documented no inputs; send a prompt.'
};

/** "flux-1-pro" as "Flux 1 Pro". */
function titleOf(name: string): string {
	return name
		.split('-')
		.map((w) => (w.length > 0 ? w[0]!.toUpperCase() + w.slice(1) : w))
		.join(' ');
}

export interface SchemaDocument {
	document: JsonSchema;
	bytes: Buffer;
	etag: string;
	authored: boolean;
}

export function buildSchemaDocument(model: CatalogModel): SchemaDocument {
	const parts = schemaParts(model);
	const authored = model.kind !== 'unauthored';
	const components = renderDialect(parts.components, model.dialect);
	const output = parts.output ? { ...parts.output, schema: renderDialect(parts.output.schema, model.dialect) } : undefined;
	const ok: JsonSchema = { description: 'The model output, under the provider media type.' };
	// Providers that publish no output description (tidal) leave the 200 without content.
	if (output && model.provider !== 'tidal') ok['content'] = { [output.mediaType]: { schema: output.schema } };
	const document: JsonSchema = {
		openapi: model.dialect === '3.1' ? '3.1.0' : '3.0.3',
		info: { title: titleOf(model.model), version: '1.0.0', description: KIND_WORDS[model.kind] },
		[AUTHORED_FLAG]: authored,
		paths: {
			[`/v2/models/${model.id}`]: {
				post: {
					operationId: `run_${model.model.replace(/[^a-z0-9]/g, '_')}`,
					requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${parts.input}` } } } },
					responses: { '200': ok }
				}
			}
		},
		components: { schemas: components }
	};
	if (model.dialect === '3.1') document['jsonSchemaDialect'] = 'https://json-schema.org/draft/2020-12/schema';
	const bytes = Buffer.from(JSON.stringify(document));
	const etag = `"${createHash('sha256').update(bytes).digest('base64url')}"`;
	return { document, bytes, etag, authored };
}

/** The request-body schema and its components, as read back out of the served document. */
export function inputSchemaOf(doc: SchemaDocument): JsonSchema {
	const paths = doc.document['paths'] as Record<string, { post: { requestBody: { content: Record<string, { schema: JsonSchema }> } } }>;
	const first = Object.values(paths)[0];
	const schema = first?.post.requestBody.content['application/json']?.schema ?? {};
	return { ...schema, components: doc.document['components'] };
}
