import { describe, expect, it } from 'vitest';
import type { NodeDefinitions } from '../protocol/object-info';
import { listValuesOf } from './reuse-missing';

describe('what a reused run names', () => {
	it('lists the values of list inputs, for the form to check against what this server offers', () => {
		const nodes = {
			CheckpointLoaderSimple: {
				displayName: 'Load Checkpoint',
				inputs: [{ name: 'ckpt_name', type: { kind: 'COMBO', choices: ['a.safetensors'] }, required: true }]
			}
		} as unknown as NodeDefinitions;
		const prompt = {
			'4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'gone.safetensors' } },
			'9': { class_type: 'NotHere', inputs: { x: 'y' } }
		};
		expect(listValuesOf(prompt, nodes)).toEqual([{ name: 'gone.safetensors', nodeId: '4', title: 'Load Checkpoint', input: 'ckpt_name' }]);
	});
});
