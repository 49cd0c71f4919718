import { describe, expect, it } from 'vitest';
import type { ApiPrompt } from '../../protocol/workflow-api';
import { checkApiPrompt } from './api-check';
import { fixtureDefinitions } from './object-info.fixture';
import { workflowFormatOf } from './ui-format';

const definitions = fixtureDefinitions();

describe('workflowFormatOf', () => {
	it.each([
		['a UI-format export', { nodes: [], links: [] }, 'ui'],
		['an API-format prompt', { '1': { class_type: 'SaveImage', inputs: {} } }, 'api'],
		['an API prompt wrapped as sent to /api/prompt', { prompt: { '1': { class_type: 'SaveImage', inputs: {} } } }, 'api'],
		['anything else', { hello: 'world' }, 'unknown'],
		['a list', [1, 2], 'unknown']
	])('%s → %s', (_, value, expected) => {
		expect(workflowFormatOf(value)).toBe(expected);
	});
});

describe('checkApiPrompt', () => {
	it('passes a complete prompt', () => {
		const prompt: ApiPrompt = {
			'1': { class_type: 'LoadImage', inputs: { image: 'example.png' } },
			'2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'x' } }
		};
		expect(checkApiPrompt(prompt, definitions)).toEqual([]);
	});

	it('names unknown node types, dangling links and missing required inputs', () => {
		const prompt: ApiPrompt = {
			'1': { class_type: 'LoadImage', inputs: { image: 'example.png' } },
			'2': { class_type: 'SaveImage', inputs: { images: ['9', 0], filename_prefix: 'x' }, _meta: { title: 'Out' } },
			'3': { class_type: 'PreviewImage', inputs: { images: ['1', 5] } },
			'4': { class_type: 'FaceDetailer', inputs: {}, _meta: { title: 'Faces' } },
			'5': { class_type: 'constructor', inputs: {} }
		};
		expect(checkApiPrompt(prompt, definitions).map((p) => [p.kind, p.message])).toEqual([
			['missing-node-types', 'This server does not have these node types:\n- FaceDetailer: #4 ("Faces")\n- constructor: #5'],
			['dangling-link', 'Node 2 ("Out"): input "images" is linked from node 9, which the workflow does not have.'],
			['dangling-link', 'Node 3: input "images" is linked from output 5 of node 1 (LoadImage), which has 2 outputs.']
		]);
	});

	it('reports a required input with no value', () => {
		const prompt: ApiPrompt = { '1': { class_type: 'SaveImage', inputs: { filename_prefix: 'x' } } };
		expect(checkApiPrompt(prompt, definitions).map((p) => p.kind)).toEqual(['required-input-missing']);
	});
});
