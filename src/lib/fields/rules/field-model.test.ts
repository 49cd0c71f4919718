import { describe, expect, it } from 'vitest';
import { looksLikeSeed, valueAt, withValueAt } from './field-model';

describe('the field model', () => {
	it('reads and writes values by path without mutating the original', () => {
		const original = { '3': { inputs: { seed: 1 } } };
		const next = withValueAt(original, ['3', 'inputs', 'seed'], 42);
		expect(valueAt(next, ['3', 'inputs', 'seed'])).toBe(42);
		expect(original['3'].inputs.seed).toBe(1);
		expect(withValueAt({}, ['loras', 0, 'scale'], 0.5)).toEqual({ loras: [{ scale: 0.5 }] });
		expect(withValueAt({ a: 1, b: 2 }, ['a'], undefined)).toEqual({ b: 2 });
	});

	it.each([
		['seed', true],
		['noise_seed', true],
		['Seed', true],
		['seeds', false],
		['seedance', false]
	])('%s looks like a seed: %s', (name, expected) => expect(looksLikeSeed(name)).toBe(expected));
});
