import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../wire/json';
import { convertUiWorkflow } from './convert';
import { fixtureDefinitions } from './object-info.fixture';
import { writeWidgetValues } from './write-values';

const ui = JSON.parse(readFileSync('tests/fixtures/workflow-files/ui-workflow.json', 'utf8')) as JsonObject;
const defs = fixtureDefinitions();

describe('writing form values into widgets_values', () => {
	it('round-trips: the written graph converts to the changed prompt, and keeps the editor-only values', () => {
		const first = convertUiWorkflow(ui, defs);
		if (!first.ok) throw new Error('fixture does not convert');
		const changed = structuredClone(first.prompt);
		changed['3']!.inputs['seed'] = 42;
		changed['3']!.inputs['steps'] = 7;
		changed['6']!.inputs['text'] = 'a lighthouse';
		const written = writeWidgetValues(ui, changed, defs);
		const again = convertUiWorkflow(written, defs);
		expect(again.ok && again.prompt).toEqual(changed);
		const sampler = (written['nodes'] as JsonObject[]).find((n) => n['id'] === 3)!;
		expect(sampler['widgets_values']).toEqual([42, 'randomize', 7, 8, 'euler', 'normal', 1]);
		expect(ui).toEqual(JSON.parse(readFileSync('tests/fixtures/workflow-files/ui-workflow.json', 'utf8')));
	});
});
