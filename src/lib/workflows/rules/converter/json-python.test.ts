import { describe, expect, it } from 'vitest';
import { parsePythonJson } from './json-python';

describe('parsePythonJson', () => {
	it.each([
		['plain JSON', '{"a": [1, 2.5, "x"]}', { a: [1, 2.5, 'x'] }],
		['NaN becomes null (what JSON.stringify sends for it)', '[NaN, 1]', [null, 1]],
		['Infinity and -Infinity stay numbers', '{"hi": Infinity, "lo": -Infinity}', { hi: Infinity, lo: -Infinity }],
		['tokens inside strings are text', '["NaN", "-Infinity", "say \\"NaN\\""]', ['NaN', '-Infinity', 'say "NaN"']],
		['a node named __proto__ is an own key', '{"__proto__": {"x": 1}}', JSON.parse('{"__proto__": {"x": 1}}')]
	])('%s', (_, text, expected) => {
		const result = parsePythonJson(text);
		expect(result).toEqual({ ok: true, value: expected });
	});

	it('refuses nesting deeper than the limit with a message, without a stack overflow', () => {
		const result = parsePythonJson('['.repeat(100_000) + ']'.repeat(100_000));
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.message).toMatch(/^The JSON nests deeper than 512 levels; no workflow does\.$/);
	});

	it('refuses a deep nesting hidden in a file with NaN', () => {
		const result = parsePythonJson('[NaN, ' + '['.repeat(1000) + ']'.repeat(1000) + ']');
		expect(result).toEqual({ ok: false, message: 'The JSON nests deeper than 512 levels; no workflow does.' });
	});

	it('says where plain JSON is broken', () => {
		const result = parsePythonJson('{\n  "a": 1,\n}');
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.message).toMatch(/^This is not valid JSON: .*line 3, column 1\.$/);
	});
});
