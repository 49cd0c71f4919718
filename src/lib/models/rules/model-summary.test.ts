import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../../emulator/router/catalog';
import { buildSchemaDocument } from '../../../../emulator/router/schemas/document';
import { firstSentence, summariseSchema, type ModelKind } from './model-summary';
import { kindInWords } from '../../core/rules/kind-words';

const catalog = buildCatalog();
const summaryOf = (id: string) => {
	const model = catalog.find((m) => m.id === id)!;
	return summariseSchema(id, buildSchemaDocument(model).document as never, '"e"');
};

describe('summariseSchema on the emulator catalog', () => {
	it.each<[string, ModelKind, string[]]>([
		['lumen/flux-1', 'image', ['text']],
		['lumen/flux-1-redux', 'image', ['text', 'image']],
		['stratus/upscale-fast', 'image', ['image']],
		['kestrel/kestrel-v1-text-to-video', 'video', ['text']],
		['kestrel/kestrel-v1-image-to-video', 'video', ['text', 'image']],
		// No output schema published: the words "short clip" say video.
		['tidal/wave-1-t2v', 'video', ['text']],
		['vertex/veo-2', 'video', ['text']],
		['sonora/voice-hd', 'audio', ['text']],
		['quill/quill-3', 'text', ['text']],
		['cogwork/llama-3-8b-instruct', 'text', ['text']],
		// Unauthored: only the title's words ("Community Audio") say anything.
		['openforge/community-audio', 'audio', []],
		['openforge/community-sdxl', 'other', []]
	])('%s is %s and needs %j', (id, kind, needs) => {
		const s = summaryOf(id);
		expect(s.kind).toBe(kind);
		expect(s.needs).toEqual(needs);
	});

	it('keeps the title and the first sentence of the description, and the ETag read', () => {
		const s = summaryOf('sonora/voice-hd');
		expect(s).toMatchObject({ title: 'Voice Hd', sentence: 'Reads your text aloud as natural speech.', etag: '"e"' });
		expect(s.description).toContain('Many voices');
	});

	it('summarises every model of the catalog without throwing', () => {
		for (const m of catalog) expect(summaryOf(m.id).kind).toBeTruthy();
	});
});

describe('summariseSchema on odd documents', () => {
	it.each<[string, unknown, ModelKind]>([
		['empty', {}, 'other'],
		['a binary audio output', { paths: { '/x': { post: { responses: { '200': { content: { 'audio/mpeg': {} } } } } } } }, 'audio'],
		['a glTF output', { paths: { '/x': { post: { responses: { '200': { content: { 'model/gltf-binary': {} } } } } } } }, '3d'],
		['info of the wrong types', { info: { title: 5, description: ['x'] }, paths: 'no' }, 'other'],
		[
			'a self-referencing output',
			{ paths: { '/x': { post: { responses: { '200': { $ref: '#/paths/~1x/post/responses/200' } } } } } },
			'other'
		]
	])('%s', (_name, doc, kind) => {
		expect(summariseSchema('p/m', doc as never, null).kind).toBe(kind);
	});
});

describe('a Cog output that is only a link (format: uri)', () => {
	const cog = (title: string, output: unknown) => ({
		info: { title },
		paths: { '/x': { post: { responses: { '200': { content: { 'application/json': { schema: output } } } } } } }
	});
	it.each<[string, unknown, ModelKind]>([
		['SDXL: photorealistic images', { type: 'string', format: 'uri', title: 'Output' }, 'image'],
		['Stable Diffusion picture maker', { type: 'array', items: { type: 'string', format: 'uri' } }, 'image'],
		['MusicGen: songs from a prompt', { type: 'string', format: 'uri' }, 'audio'],
		['Llama chat', { type: 'array', items: { type: 'string' }, 'x-cog-array-type': 'iterator' }, 'text']
	])('%s is %s, not text', (title, output, kind) => {
		expect(summariseSchema('r/m', cog(title, output) as never, null).kind).toBe(kind);
	});
});

describe('words', () => {
	it.each<[string, ModelKind | undefined]>([
		['Animates a still picture into a short clip.', 'video'],
		['Reads your text aloud', 'audio'],
		['A chat model that answers questions', 'text'],
		['Enlarges a picture', 'image'],
		['Settings', undefined]
	])('%s', (words, kind) => expect(kindInWords(words)).toBe(kind));

	it('cuts the first sentence', () => {
		expect(firstSentence('One. Two.')).toBe('One.');
		expect(firstSentence('No stop at all')).toBe('No stop at all');
		expect(firstSentence('v1.5 is fast. More.')).toBe('v1.5 is fast.');
		expect(firstSentence('x'.repeat(300)).length).toBe(160);
	});
});
