import { describe, expect, it } from 'vitest';
import { textBlocks } from './text-blocks';

describe('textBlocks', () => {
	it.each([
		['plain words stay one prose block', 'Hello\nworld', [{ kind: 'prose', text: 'Hello\nworld' }]],
		[
			'a fenced block becomes code with its language',
			'Try this:\n```ts\nconst a = 1;\n```\nDone.',
			[
				{ kind: 'prose', text: 'Try this:' },
				{ kind: 'code', text: 'const a = 1;', language: 'ts' },
				{ kind: 'prose', text: 'Done.' }
			]
		],
		['an unclosed fence runs to the end', '```\nx = 1', [{ kind: 'code', text: 'x = 1', language: '' }]],
		['HTML is only text', '<b>bold</b>', [{ kind: 'prose', text: '<b>bold</b>' }]]
	])('%s', (_name, text, expected) => {
		expect(textBlocks(text)).toEqual(expected);
	});
});
