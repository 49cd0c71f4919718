/**
 * The class "unbounded recursion on untrusted structure": input nested far past any real document
 * is refused with a message at the parser, before a recursive walk, a structured clone or
 * JSON.stringify overflows the stack.
 */
import { describe, expect, it } from 'vitest';
import { importWorkflowText, toApiPrompt, WORKFLOW_MAX_DEPTH } from '../../workflows/rules/workflow-import';
import { HISTORY_MAX_DEPTH, parseHistoryFile } from '../../history/rules/history-file';
import { nestingDepth } from './json';

const nested = (levels: number, open: string, close: string, inner = '1') => open.repeat(levels) + inner + close.repeat(levels);
const shapes: Array<[string, (n: number) => string]> = [
	['arrays', (n) => nested(n, '[', ']')],
	['objects', (n) => nested(n, '{"a":', '}')],
	['objects keyed __proto__', (n) => nested(n, '{"__proto__":', '}')]
];

describe.each(shapes)('nesting of %s', (_name, deep) => {
	it.each([200, 5_000, 100_000])('%i levels in a workflow input: refused with a message', (levels) => {
		const result = importWorkflowText(`{"1":{"class_type":"KSampler","inputs":{"seed":${deep(levels)}}}}`);
		expect(result).toEqual({ ok: false, message: expect.stringContaining(`deeper than ${WORKFLOW_MAX_DEPTH} levels`) });
	});

	it('a wrapped prompt nested deep: refused, not recursed into', () => {
		expect(importWorkflowText(nested(100_000, '{"prompt":', '}')).ok).toBe(false);
	});

	it('a history record nested 100,000 levels: refused with a message', () => {
		const result = parseHistoryFile(`{"format":"runboard-history","version":1,"records":[{"key":"run:1","value":{"x":${deep(100_000)}}}]}`);
		expect(result).toEqual({ ok: false, message: expect.stringContaining(`deeper than ${HISTORY_MAX_DEPTH} levels`) });
	});
});

describe('nestingDepth', () => {
	it('counts without recursion and stops past the limit', () => {
		expect(nestingDepth(1, 10)).toBe(0);
		expect(nestingDepth({ a: [1, { b: [] }] }, 10)).toBe(4);
		expect(nestingDepth(JSON.parse(nested(100_000, '[', ']')), 64)).toBe(65);
	});

	it('accepts real workflows: the limit is far above what ComfyUI writes', () => {
		const real = { 1: { class_type: 'CLIPTextEncode', inputs: { text: 'a', clip: ['4', 1], extra: { list: [[1, 2]] } } } };
		expect(toApiPrompt(real).ok).toBe(true);
	});
});
