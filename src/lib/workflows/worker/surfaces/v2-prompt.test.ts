import { describe, expect, it } from 'vitest';
import type { ApiPrompt } from '../../protocol/workflow-api';
import { ASSET_NAME_PREFIX } from '../../rules/v2-job-mapping';
import { withAssetReferences } from './v2-prompt';

describe('withAssetReferences', () => {
	// Parsed from text, as a workflow file is: `__proto__` is an own key, a node id and an input name.
	const prompt = JSON.parse(`{
		"__proto__": { "class_type": "LoadImage", "inputs": { "__proto__": "${ASSET_NAME_PREFIX}asset_1", "constructor": 3 } },
		"9": { "class_type": "SaveImage", "inputs": { "images": ["__proto__", 0], "toString": "x" } }
	}`) as ApiPrompt;

	it('keeps a node and an input named __proto__ in the body it sends', () => {
		const body = JSON.parse(JSON.stringify(withAssetReferences(prompt))) as Record<string, { inputs: Record<string, unknown> }>;
		expect(Object.keys(body)).toEqual(['9', '__proto__']);
		expect(Object.keys(body['__proto__']!.inputs)).toEqual(['__proto__', 'constructor']);
		expect(Object.getOwnPropertyDescriptor(body['__proto__']!.inputs, '__proto__')?.value).toEqual({
			__type: 'core/ASSET',
			info: { id: 'asset_1' }
		});
		expect(body['9']!.inputs).toEqual({ images: ['__proto__', 0], toString: 'x' });
	});
});
