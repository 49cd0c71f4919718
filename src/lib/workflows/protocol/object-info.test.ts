import { describe, expect, it } from 'vitest';
import { parseObjectInfo } from './object-info';
import { checkWorkflow } from '../rules/workflow-check';
import { importWorkflowText } from '../rules/workflow-import';

const good = { input: { required: { seed: ['INT', { default: 0 }] } }, output: ['LATENT'], display_name: 'Good' };

describe('object_info is read per entry: one broken node never poisons the others', () => {
	it.each([
		['an output type that is a number', { output: [3] }, /output type 0 is 3/],
		['an output type that is an object', { output: ['IMAGE', { t: 1 }] }, /output type 1 is \{"t":1\}/],
		['an output type that is null', { output: [null] }, /output type 0 is null/],
		['outputs that are not a list', { output: 'IMAGE' }, /not a list/],
		['a definition that is not an object', 42, /not a JSON object/],
		['a required input without a type', { input: { required: { x: [] } }, output: [] }, /required input "x"/]
	])('%s: that node is broken with the reason, the rest work', (_shape, broken, reason) => {
		const parsed = parseObjectInfo({ Good: good, Broken: broken } as never);
		expect(parsed.ok).toBe(true);
		if (!parsed.ok) return;
		expect(parsed.nodes['Good']!.problem).toBeUndefined();
		expect(parsed.nodes['Good']!.outputs).toEqual(['LATENT']);
		expect(parsed.nodes['Broken']!.problem).toMatch(reason);

		const imported = importWorkflowText(
			JSON.stringify({ 1: { class_type: 'Good', inputs: { seed: 1 } }, 2: { class_type: 'Broken', inputs: {} } })
		);
		if (!imported.ok) throw new Error(imported.message);
		const problems = checkWorkflow(imported.prompt, parsed.nodes);
		expect(problems.map((p) => p.nodeId)).toEqual(['2']);
		expect(problems[0]!.message).toMatch(/definition from this server is broken/);
	});

	it('refuses only a document that is not an object at all', () => {
		expect(parseObjectInfo([] as never).ok).toBe(false);
		expect(parseObjectInfo('x').ok).toBe(false);
	});
});
