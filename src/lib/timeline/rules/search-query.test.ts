import { describe, expect, it } from 'vitest';
import textToImage from '../../workflows/rules/examples/text-to-image.json';
import type { ApiPrompt } from '../../core/protocol/workflow-run';
import { newWorkflowRun } from '../../workflows/rules/run-record';
import type { ModelRun } from '../../core/protocol/model-run';
import { dayOf, searchDoc } from './search-doc';
import { markParts, matchesAll, parseQuery, whereMatched } from './search-query';

const workflowRun = () => ({
	...newWorkflowRun({
		id: 'w1',
		profileId: 'demo',
		title: 'Text to image',
		workflowId: 'text-to-image',
		prompt: textToImage as ApiPrompt,
		seeds: { '3.seed': 424242 },
		partner: false,
		now: new Date(2026, 10, 28, 9, 30).getTime()
	}),
	status: 'succeeded' as const,
	outputs: [{ nodeId: '9', kind: 'image' as const, ref: { filename: 'ComfyUI_00001_.png', subfolder: '', type: 'output' as const } }]
});

const modelRun: ModelRun = {
	schemaVersion: 1,
	kind: 'model',
	id: 'm1',
	profileId: 'router',
	modelId: 'lumen/flux-dev',
	title: 'Flux dev',
	mode: 'queue',
	body: {
		prompt: 'A lighthouse in FOG',
		negative_prompt: 'blurry',
		loras: [{ path: 'https://example.test/detail-tweaker.safetensors', scale: 0.8 }],
		num_inference_steps: 28
	},
	idempotencyKey: 'k',
	keyCreatedAt: 0,
	status: 'failed',
	attempts: 1,
	replayed: false,
	createdAt: new Date(2026, 0, 2).getTime(),
	seeds: { seed: 77 }
};

const finds = (run: Parameters<typeof searchDoc>[0], query: string) => matchesAll(searchDoc(run), parseQuery(query));

describe('a run as the search reads it', () => {
	it('finds a workflow run by prompt words, negative prompt, seed, checkpoint, sampler, input, output, status, date and kind', () => {
		const run = workflowRun();
		for (const query of [
			'glass bottle',
			'GALAXY',
			'negative:watermark',
			'424242',
			'seed:4242',
			'model:v1-5',
			'sampler:euler',
			'steps=20',
			'output:image',
			'comfyui_00001',
			'status:succeeded',
			dayOf(run.createdAt),
			'kind:workflow',
			'text-to-image'
		])
			expect(finds(run, query), query).toBe(true);
	});

	it('keeps each word to its field when a field is named, and needs every word', () => {
		const run = workflowRun();
		expect(finds(run, 'negative:galaxy')).toBe(false);
		expect(finds(run, 'prompt:watermark')).toBe(false);
		expect(finds(run, 'seed:999')).toBe(false);
		expect(finds(run, 'galaxy dragon')).toBe(false);
		expect(finds(run, '"galaxy bottle"')).toBe(true);
		expect(finds(run, '"bottle galaxy"')).toBe(false);
	});

	it('never matches a field name or a code, only values', () => {
		const doc = searchDoc(workflowRun());
		expect(matchesAll(doc, parseQuery('negative'))).toBe(false);
		expect(matchesAll(doc, parseQuery('\u0001'))).toBe(true); // no words at all: nothing to look for
		expect(parseQuery('\u0002 \n')).toEqual([]);
	});

	it('reads a model request body: prompt, negative prompt, LoRA paths, numbers, seed and model', () => {
		for (const query of [
			'lighthouse fog',
			'negative:blurry',
			'lora:detail-tweaker',
			'num_inference_steps=28',
			'seed:77',
			'model:flux-dev',
			'failed'
		])
			expect(finds(modelRun, query), query).toBe(true);
		expect(finds(modelRun, 'lora:blurry')).toBe(false);
	});

	it('says where a word matched, with the words around it', () => {
		const doc = searchDoc(workflowRun());
		expect(whereMatched(doc, parseQuery('watermark'))).toEqual({ field: 'negative', excerpt: 'text, watermark' });
		expect(whereMatched(doc, parseQuery('nothing-like-this'))).toBeNull();
	});

	it('keeps hostile queries bounded: an unknown field stays a word, a long query is cut', () => {
		expect(parseQuery('http://x a:b')).toEqual([
			{ text: 'http://x', field: null },
			{ text: 'a:b', field: null }
		]);
		expect(parseQuery('w '.repeat(500)).length).toBe(12);
	});
});

describe('marking matched words', () => {
	it('marks every occurrence, case-insensitively, merging neighbours', () => {
		expect(markParts('Red boat, red sky', ['red'])).toEqual([
			{ text: 'Red', marked: true },
			{ text: ' boat, ', marked: false },
			{ text: 'red', marked: true },
			{ text: ' sky', marked: false }
		]);
		expect(markParts('seed 424242', ['4242', '42'])).toEqual([
			{ text: 'seed ', marked: false },
			{ text: '424242', marked: true }
		]);
		expect(markParts('nothing', [])).toEqual([{ text: 'nothing', marked: false }]);
	});
});
