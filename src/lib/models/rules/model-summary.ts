/**
 * What a catalog tile says about a model, read from its schema document: its kind (from the output's
 * media types and shape, else the inputs, else the words of its title and description), the
 * document's title and first sentence, and the inputs it needs. Pure; the worker fetches documents.
 */
import { kindInWords } from '../../core/rules/kind-words';
import { firstOperation, isSchema, okContent, operationBody, resolveLocalRef, type Schema } from '../../core/protocol/openapi';

import { RESULT_KINDS, type ResultKind } from '../../core/protocol/run-kernel';
import { namesTheDocument } from './model-title';

/** A model's kind: what its result is (the run kernel's result kinds). */
export const MODEL_KINDS = RESULT_KINDS;
export type ModelKind = ResultKind;
export type { ModelSummary, NeededInput } from '../protocol/catalog';
import type { ModelSummary, NeededInput } from '../protocol/catalog';

/** Words a search can use for each kind, beyond its name ("speech" finds audio models). */
export const KIND_WORDS: Record<ModelKind, string> = {
	image: 'image picture photo',
	video: 'video clip animation',
	audio: 'audio speech voice sound music',
	text: 'text chat llm language',
	'3d': '3d mesh',
	other: 'other'
};

export const KIND_LABELS: Record<ModelKind, string> = {
	image: 'Image',
	video: 'Video',
	audio: 'Audio',
	text: 'Text',
	'3d': '3D',
	other: 'Other'
};

const TITLE_MAX = 120;
const SENTENCE_MAX = 160;
const DESCRIPTION_MAX = 600;
const PROPERTY_BUDGET = 200;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim().replace(/\s+/g, ' ') : undefined);

/** The kind a media type names outright (`image/png`, `model/gltf-binary`), if any. */
function kindOfMediaType(mediaType: string): ModelKind | undefined {
	const type = mediaType.toLowerCase().split(';')[0]!.trim();
	if (type.startsWith('image/')) return 'image';
	if (type.startsWith('video/')) return 'video';
	if (type.startsWith('audio/')) return 'audio';
	if (type.startsWith('model/')) return '3d';
	if (type.startsWith('text/')) return 'text';
	return undefined;
}

/** Property names, descriptions and media hints of a schema, a few levels down, as one string of words. */
function shapeWords(doc: Schema, schema: Schema | undefined): string {
	const words: string[] = [];
	let budget = PROPERTY_BUDGET;
	const visit = (s: unknown, depth: number): void => {
		const at = resolveLocalRef(doc, s);
		if (!at || depth > 4 || budget-- <= 0) return;
		for (const hint of [at['contentMediaType'], at['format'], at['x-media-type']]) if (typeof hint === 'string') words.push(hint);
		if (isSchema(at['items'])) visit(at['items'], depth + 1);
		for (const key of ['allOf', 'anyOf', 'oneOf']) {
			const list = at[key];
			if (Array.isArray(list)) for (const part of list) visit(part, depth + 1);
		}
		const props = at['properties'];
		if (!isSchema(props)) return;
		for (const [name, prop] of Object.entries(props)) {
			words.push(name.replace(/_/g, ' '));
			visit(prop, depth + 1);
		}
	};
	visit(schema, 0);
	return words.join(' ');
}

/**
 * A Cog-style output that is only a link (`{type: string, format: uri}`, or a list of them): it says
 * nothing of what the link holds, so it is not text; the model's own words say what it makes.
 */
function isLinkOutput(doc: Schema, schema: Schema | undefined): boolean {
	const isLink = (s: Schema | undefined) => s?.['type'] === 'string' && (s['format'] === 'uri' || s['format'] === 'url');
	if (isLink(schema)) return true;
	return schema?.['type'] === 'array' && isLink(resolveLocalRef(doc, schema['items']));
}

/** The kind of the output: its media types first, then what a JSON output holds (`images`, `video`, `output` text). */
function outputKind(doc: Schema, op: Schema | undefined): ModelKind | 'link' | undefined {
	const content = okContent(doc, op);
	if (!content) return undefined;
	for (const [mediaType, media] of Object.entries(content)) {
		const byType = kindOfMediaType(mediaType);
		if (byType) return byType;
		if (!mediaType.includes('json') || !isSchema(media)) continue;
		const schema = resolveLocalRef(doc, media['schema']);
		if (isLinkOutput(doc, schema)) return 'link';
		const byShape = kindInWords(shapeWords(doc, schema));
		if (byShape) return byShape;
		if (schema && onlyText(doc, schema)) return 'text';
	}
	return undefined;
}

/** An output that is a string, or an object whose properties are strings or token streams. */
function onlyText(doc: Schema, schema: Schema): boolean {
	const isText = (s: Schema | undefined) =>
		s?.['type'] === 'string' || (s?.['type'] === 'array' && resolveLocalRef(doc, s['items'])?.['type'] === 'string');
	if (isText(schema)) return true;
	const props = schema['properties'];
	if (!isSchema(props)) return false;
	const values = Object.values(props).map((p) => resolveLocalRef(doc, p));
	return values.length > 0 && values.some((p) => isText(p) && !p?.['format']);
}

const TEXT_INPUT = /^(prompt|text|input|messages?|question|instructions?|script|lyrics|system_prompt)$/i;

/** What a field takes, by its media hints and its name; undefined for settings such as steps or size. */
function neededOf(doc: Schema, name: string, schema: Schema | undefined): NeededInput | undefined {
	const at = resolveLocalRef(doc, schema);
	const hint = [at?.['contentMediaType'], at?.['format'], at?.['_fal_ui_field']].filter((h) => typeof h === 'string').join(' ');
	const byHint = kindOfMediaType(hint) ?? kindInWords(hint);
	if (byHint === 'image' || byHint === 'audio' || byHint === 'video') return byHint;
	const words = name.replace(/_/g, ' ');
	if (TEXT_INPUT.test(name)) return 'text';
	const looksMedia = /(url|uri|file|image|img|audio|video|frame|mask|base64)/i.test(name) || at?.['format'] === 'uri';
	if (!looksMedia) return undefined;
	if (/\b(mask|frame)\b|image|img/i.test(words)) return 'image';
	if (/audio|voice|sound/i.test(words)) return 'audio';
	if (/video|clip/i.test(words)) return 'video';
	return undefined;
}

/** The properties and required names of an object schema, its `allOf` parts merged in (a few levels). */
function objectParts(doc: Schema, schema: Schema | undefined, depth = 0): { props: Schema; required: string[] } {
	const props: Schema = Object.create(null) as Schema;
	const required: string[] = [];
	if (!schema || depth > 4) return { props, required };
	const own = schema['properties'];
	if (isSchema(own)) for (const [k, v] of Object.entries(own)) props[k] = v;
	if (Array.isArray(schema['required'])) for (const r of schema['required']) if (typeof r === 'string') required.push(r);
	const parts = schema['allOf'];
	if (Array.isArray(parts))
		for (const part of parts.slice(0, 16)) {
			const inner = objectParts(doc, resolveLocalRef(doc, part), depth + 1);
			for (const [k, v] of Object.entries(inner.props)) props[k] ??= v;
			required.push(...inner.required);
		}
	return { props, required };
}

/** The inputs a person must give: the required fields, or with no required list every field the names make clear. */
function neededInputs(doc: Schema, body: Schema | undefined): NeededInput[] {
	const { props, required } = objectParts(doc, body);
	const names = required.length > 0 ? required : Object.keys(props);
	const found = new Set<NeededInput>();
	for (const name of names.slice(0, PROPERTY_BUDGET)) {
		if (!Object.hasOwn(props, name)) continue;
		const needed = neededOf(doc, name, props[name] as Schema);
		if (needed) found.add(needed);
	}
	return (['text', 'image', 'audio', 'video'] as const).filter((n) => found.has(n));
}

/** The first sentence of a description, bounded: "Reads your text aloud. Many voices." gives "Reads your text aloud." */
export function firstSentence(description: string): string {
	const line = description
		.split(/\n\s*\n/)[0]!
		.replace(/\s+/g, ' ')
		.trim();
	const end = /[.!?](\s|$)/.exec(line);
	const sentence = end ? line.slice(0, end.index + 1) : line;
	return sentence.length > SENTENCE_MAX ? `${sentence.slice(0, SENTENCE_MAX - 1).trimEnd()}…` : sentence;
}

/** A tile's facts from a model's schema document. Never throws on an odd document: missing parts are left out. */
export function summariseSchema(modelId: string, doc: Schema, etag: string | null): ModelSummary {
	const info = isSchema(doc['info']) ? doc['info'] : {};
	const documentTitle = text(info['title'])?.slice(0, TITLE_MAX);
	// "Queue OpenAPI for fal-ai/flux/dev" names the document: the tile keeps the model's id instead.
	const title = documentTitle && !namesTheDocument(documentTitle, modelId) ? documentTitle : undefined;
	const description = text(info['description'])?.slice(0, DESCRIPTION_MAX);
	const op = firstOperation(doc);
	const body = operationBody(doc, op);
	const needs = neededInputs(doc, body);
	const byOutput = outputKind(doc, op);
	const kind =
		(byOutput === 'link' ? undefined : byOutput) ??
		kindInWords(`${title ?? ''} ${description ?? ''} ${modelId.replace(/[-_/]/g, ' ')}`) ??
		kindInWords(shapeWords(doc, body)) ??
		'other';
	return {
		modelId,
		kind,
		needs,
		etag,
		...(title && title !== modelId ? { title } : {}),
		...(description ? { description, sentence: firstSentence(description) } : {})
	};
}

const NEEDED: readonly NeededInput[] = ['text', 'image', 'audio', 'video'];

/** A saved summary (IndexedDB) read back into a typed value, or undefined when it is not one. */
export function parseSummary(value: unknown): ModelSummary | undefined {
	if (!isSchema(value)) return undefined;
	const { modelId, kind, needs, etag, title, sentence, description } = value;
	if (typeof modelId !== 'string' || !(MODEL_KINDS as readonly unknown[]).includes(kind) || !Array.isArray(needs)) return undefined;
	return {
		modelId,
		kind: kind as ModelKind,
		needs: NEEDED.filter((n) => needs.includes(n)),
		etag: typeof etag === 'string' ? etag : null,
		...(typeof title === 'string' ? { title: title.slice(0, TITLE_MAX) } : {}),
		...(typeof sentence === 'string' ? { sentence: sentence.slice(0, SENTENCE_MAX) } : {}),
		...(typeof description === 'string' ? { description: description.slice(0, DESCRIPTION_MAX) } : {})
	};
}
