import { describe, expect, it } from 'vitest';
import { resultParts } from './result-parts';

describe('resultParts', () => {
	it('shows an LLM answer as text and its token usage as labelled values, never as a tree', () => {
		const parts = resultParts({ output: 'Here is a reply.\nSecond line.', usage: { input_tokens: 5, output_tokens: 9 } }, []);
		expect(parts.texts).toEqual([{ label: 'output', text: 'Here is a reply.\nSecond line.' }]);
		expect(parts.values).toEqual([
			{ label: 'usage · input tokens', value: '5' },
			{ label: 'usage · output tokens', value: '9' }
		]);
		expect(parts.data).toEqual([]);
	});

	it('leaves out the media and their holders, and labels what sits beside them', () => {
		const json = {
			images: [{ url: 'https://s/a.png', width: 512, height: 512, content_type: 'image/png' }],
			seed: 42,
			has_nsfw_concepts: [false],
			prompt: 'a kite'
		};
		const parts = resultParts(json, ['images.0.url']);
		expect(parts.values).toEqual([
			{ label: 'seed', value: '42' },
			{ label: 'has nsfw concepts', value: 'false' },
			{ label: 'prompt', value: 'a kite' }
		]);
		expect(parts.texts).toEqual([]);
		expect(parts.data).toEqual([]);
	});

	it('opens a wrapper that holds media, so a count beside the videos is a value', () => {
		const parts = resultParts(
			{ response: { videos: [{ gcsUri: 'https://s/v.webm', mimeType: 'video/webm' }], raiMediaFilteredCount: 0 } },
			['response.videos.0.gcsUri']
		);
		expect(parts.values).toEqual([{ label: 'response · raiMediaFilteredCount', value: '0' }]);
	});

	it('shows a JSON answer once, as data, when the text and the parsed object say the same', () => {
		const answer = { answer: 'You asked', items: ['a', 'b'], confident: true };
		const parts = resultParts({ output: JSON.stringify(answer), json: answer }, []);
		expect(parts.data).toEqual([{ label: 'output', value: answer }]);
		expect(parts.texts).toEqual([]);
	});

	it('skips token streams already joined into text, and keeps a bare string result as text', () => {
		expect(resultParts({ output: ['Hi', ' there'] }, [], ['output'])).toEqual({ texts: [], values: [], data: [] });
		expect(resultParts('just words', []).texts).toEqual([{ label: 'result', text: 'just words' }]);
	});

	it('keeps nested data as a tree', () => {
		const nested = { boxes: [{ x: 1, y: 2, label: { name: 'cat', score: 0.9 } }] };
		expect(resultParts(nested, []).data).toEqual([{ label: 'boxes', value: nested.boxes }]);
	});
});
