import { describe, expect, it } from 'vitest';
import { normalizeSearchText, searchDoc, SEARCH_FIELDS } from './search-doc';
import type { WorkflowRun } from '../../core/protocol/workflow-run';

describe('a value as the search text keeps it', () => {
	it.each([
		['Plain Words', 'plain words'],
		['already clean', 'already clean'],
		['  padded  ', 'padded'],
		['two  spaces', 'two spaces'],
		['tab\there', 'tab here'],
		['line\nbreak', 'line break'],
		['no\u00a0break space', 'no break space'],
		['ideographic\u3000space', 'ideographic space'],
		['bom\ufeffinside', 'bom inside'],
		['control\u0001code', 'control code'],
		['del\u007fchar', 'del char'],
		[' ', ''],
		['ÉCLAIR', 'éclair'],
		['zero\u200bwidth', 'zero\u200bwidth'] // not white space in JavaScript: kept
	])('%j reads %j', (value, clean) => {
		expect(normalizeSearchText(value)).toBe(clean);
	});
});

describe('an input is read by its name, whatever its value', () => {
	const runWith = (inputs: Record<string, unknown>) =>
		({
			kind: 'workflow',
			id: 'w',
			profileId: 'p',
			title: 't',
			workflowId: null,
			status: 'succeeded',
			createdAt: 0,
			prompt: { '1': { class_type: 'X', inputs } },
			seeds: {},
			outputs: [],
			texts: []
		}) as unknown as WorkflowRun;

	it('gives the same name the same field in every run, and a value of another type its own line', () => {
		const lines = (inputs: Record<string, unknown>) => searchDoc(runWith(inputs)).split('\n');
		expect(lines({ seed: 7, text: 'a cat' })).toEqual(expect.arrayContaining([`${SEARCH_FIELDS.seed}7`, `${SEARCH_FIELDS.prompt}a cat`]));
		expect(lines({ seed: 8, text: 'a dog' })).toEqual(expect.arrayContaining([`${SEARCH_FIELDS.seed}8`, `${SEARCH_FIELDS.prompt}a dog`]));
		// A prompt's name with a number is an input (name=value), not a prompt.
		expect(lines({ text: 3 })).toContain(`${SEARCH_FIELDS.input}text=3`);
		expect(lines({ lora_name: 'detail.safetensors' })).toContain(`${SEARCH_FIELDS.lora}detail.safetensors`);
		expect(lines({ lora_name: 2 })).toContain(`${SEARCH_FIELDS.input}lora_name=2`);
	});
});
