import { describe, expect, it } from 'vitest';
import type { NodeDefinitions } from '../protocol/object-info';
import { definitionsOf, typesOf } from './definitions-of';

const nodes = Object.assign(
	Object.create(null) as NodeDefinitions,
	{
		KSampler: { name: 'KSampler' },
		VAEDecode: { name: 'VAEDecode' },
		LoraLoader: { name: 'LoraLoader' }
	} as unknown as NodeDefinitions
);

describe('the node definitions a workflow needs', () => {
	it('lists the types a workflow uses, each once', () => {
		const prompt = {
			'1': { class_type: 'KSampler', inputs: {} },
			'2': { class_type: 'KSampler', inputs: {} },
			'3': { class_type: 'VAEDecode', inputs: {} }
		};
		expect(typesOf(prompt)).toEqual(['KSampler', 'VAEDecode']);
	});

	it('keeps only those types; one the server lacks stays absent', () => {
		const some = definitionsOf(nodes, ['KSampler', 'NotOnThisServer']);
		expect(Object.keys(some)).toEqual(['KSampler']);
		expect(Object.hasOwn(some, 'NotOnThisServer')).toBe(false);
	});

	it('takes no inherited names for types', () => {
		const some = definitionsOf(nodes, ['constructor', '__proto__', 'toString']);
		expect(Object.keys(some)).toEqual([]);
		expect(Object.getPrototypeOf(some)).toBeNull();
	});
});
