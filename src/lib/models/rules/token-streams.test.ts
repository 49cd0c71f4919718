import { describe, expect, it } from 'vitest';
import { joinedStreams } from './token-streams';
import { outputSchemaOf } from '../../core/protocol/openapi';
import type { Json } from '../../core/protocol/json';
import { buildCatalog } from '../../../../emulator/router/catalog';
import { buildSchemaDocument } from '../../../../emulator/router/schemas/document';

const stream = { type: 'array', items: { type: 'string' }, 'x-cog-array-type': 'iterator', 'x-cog-array-display': 'concatenate' };
const docWith = (schema: unknown, components: Record<string, unknown> = {}) => ({
	openapi: '3.1.0',
	paths: { '/v2/models/a/b': { post: { responses: { '200': { content: { 'application/json': { schema } } } } } } },
	components: { schemas: components }
});

describe('token streams joined into text', () => {
	it.each([
		{
			name: 'a property of the output',
			doc: docWith({ type: 'object', properties: { output: stream } }),
			json: { output: ['Hel', 'lo', ' world'] },
			want: [{ path: 'output', text: 'Hello world' }]
		},
		{ name: 'the whole output', doc: docWith(stream), json: ['a', ' b'], want: [{ path: '', text: 'a b' }] },
		{
			name: 'through $ref',
			doc: docWith(
				{ $ref: '#/components/schemas/Out' },
				{ Out: { type: 'object', properties: { text: { $ref: '#/components/schemas/Tokens' } } }, Tokens: stream }
			),
			json: { text: ['x', 'y'] },
			want: [{ path: 'text', text: 'xy' }]
		},
		{
			name: 'an array without the hint stays a list',
			doc: docWith({ type: 'object', properties: { output: { type: 'array', items: { type: 'string' } } } }),
			json: { output: ['a', 'b'] },
			want: []
		},
		{
			name: 'values that are not all strings are left alone',
			doc: docWith({ type: 'object', properties: { output: stream } }),
			json: { output: ['a', 1] },
			want: []
		},
		{ name: 'a document without an output', doc: { paths: {} }, json: { output: ['a'] }, want: [] }
	])('$name', ({ doc, json, want }) => {
		expect(joinedStreams(doc, json as Json)).toEqual(want);
	});

	it('finds the stream of the emulator Cog language models', () => {
		const model = buildCatalog().find((m) => m.id === 'cogwork/llama-3-8b-instruct')!;
		const document = buildSchemaDocument(model).document;
		expect(outputSchemaOf(document)).toBeDefined();
		expect(joinedStreams(document, { output: ['Here', ' is', ' text.'] })).toEqual([{ path: 'output', text: 'Here is text.' }]);
	});
});
