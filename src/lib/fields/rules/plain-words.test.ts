import { describe, expect, it } from 'vitest';
import type { Field } from './field-model';
import { plainMessage } from './plain-words';

const base = { path: ['x'], required: true, advanced: false, nullable: false };
const text = (label: string, extra = {}): Field => ({ ...base, id: 'x', label, kind: 'text', ...extra });
const num = (kind: 'integer' | 'number', extra = {}): Field => ({ ...base, id: 'x', label: 'Steps', kind, slider: false, ...extra });

describe('plainMessage', () => {
	it.each<[string, Field, string, string]>([
		['a missing prompt', text('Prompt'), 'required', 'Write a prompt'],
		['an empty prompt (minLength 1)', text('Prompt', { minLength: 1 }), 'minLength', 'Write a prompt'],
		['a short text', text('Prompt', { minLength: 10 }), 'minLength', 'Write at least 10 characters'],
		['a long text', text('Prompt', { maxLength: 2500 }), 'maxLength', 'Keep it to 2,500 characters or fewer'],
		[
			'a missing image',
			{ ...base, id: 'x', label: 'Image url', kind: 'media', accept: 'image', transport: 'url' },
			'required',
			'Add an image'
		],
		['a step count out of range', num('integer', { min: 1, max: 50 }), 'maximum', 'Use a whole number from 1 to 50'],
		['a scale below an exclusive bound', num('number', { min: 0, exclusiveMin: true }), 'exclusiveMinimum', 'Use a number greater than 0'],
		['a number with only a maximum', num('number', { max: 4 }), 'maximum', 'Use a number of at most 4'],
		['a fraction where a whole number goes', num('integer'), 'type', 'Use a whole number'],
		['an unknown keyword', text('Prompt'), 'pattern', 'The value does not match']
	])('%s', (_name, field, keyword, words) => {
		expect(plainMessage(field, { keyword, message: 'The value does not match' })).toBe(words);
	});
});
