/** The media kind an input takes (image, video, audio), guessed from its schema's hints, examples and words. */
import type { MediaAccept } from './field-model';
import { kindInWords } from '../../core/rules/kind-words';
import { isSchema, type Schema } from '../../core/protocol/openapi';
import { examplesOf } from './schema-keywords';

const MEDIA_KINDS: ReadonlyArray<Exclude<MediaAccept, 'any'>> = ['image', 'video', 'audio'];

/** A kind named by a hint's text: `image`, `image/png`, `video_url`, `audio-file`, `ImageUrl`. */
function kindInHint(hint: unknown): MediaAccept | undefined {
	if (typeof hint !== 'string') return undefined;
	const word = hint.toLowerCase().match(/^[a-z]+/)?.[0];
	return MEDIA_KINDS.find((k) => k === word);
}

/** A kind from a URL's file extension (in `examples` or `default`). */
function kindOfUrl(value: unknown): MediaAccept | undefined {
	if (typeof value !== 'string') return undefined;
	const ext = value
		.split(/[?#]/)[0]!
		.match(/\.([a-z0-9]{2,5})$/i)?.[1]
		?.toLowerCase();
	if (!ext) return undefined;
	if (/^(png|jpe?g|webp|gif|bmp|tiff?|avif|heic)$/.test(ext)) return 'image';
	if (/^(mp4|webm|mov|mkv|avi|m4v)$/.test(ext)) return 'video';
	if (/^(mp3|wav|flac|ogg|m4a|aac|opus)$/.test(ext)) return 'audio';
	return undefined;
}

/** A media kind the words name; other kinds (text, 3d) are no media input. */
function mediaInWords(text: string): MediaAccept | undefined {
	const kind = kindInWords(text);
	return kind === 'image' || kind === 'video' || kind === 'audio' ? kind : undefined;
}

/**
 * What a media input takes. The schema's own hints come first (`contentMediaType`, a media
 * `format`, fal's `_fal_ui_field` and `ui.field`, `x-*` media hints, then the extension of its
 * examples), and only then words: the name before the description, so an `image_url` described as
 * "the first frame of the video" stays an image.
 */
export function mediaAcceptOf(name: string, schema: Schema, description: string): MediaAccept {
	const hinted = hintedMediaKind(schema);
	if (hinted) return hinted;
	for (const example of [...(examplesOf(schema) ?? []), schema['default']]) {
		const kind = kindOfUrl(example);
		if (kind) return kind;
	}
	return mediaInWords(name) ?? mediaInWords(description) ?? 'any';
}

/** The media kind a schema names outright, which also makes a plain string a media input. */
export function hintedMediaKind(schema: Schema): MediaAccept | undefined {
	const ui = isSchema(schema['ui']) ? schema['ui'] : undefined;
	const hints = [
		schema['contentMediaType'],
		schema['format'],
		schema['_fal_ui_field'],
		ui?.['field'],
		ui?.['type'],
		schema['x-media-type'],
		schema['x-fal-media-type'],
		schema['accept']
	];
	for (const hint of hints) {
		const kind = kindInHint(hint);
		if (kind) return kind;
	}
	return undefined;
}
