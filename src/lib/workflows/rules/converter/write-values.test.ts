import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../core/protocol/json';
import { convertUiWorkflow } from './convert';
import { fixtureDefinitions } from './object-info.fixture';
import { writeWidgetValues } from './write-values';
import { canvasLayout } from './canvas-layout';
import { subgraphDefinition, uiNode, workflow04 } from './ui-builder.fixture';
import { workflowFieldGroups } from '../object-info-fields';

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

describe('values inside subgraphs', () => {
	const SUB = 'c0000000-0000-4000-8000-000000000003';
	const latent = subgraphDefinition({
		id: SUB,
		name: 'Canvas',
		inputs: [],
		outputs: [['LATENT', 'LATENT', [301]]],
		nodes: [uiNode(1, 'EmptyLatentImage', { outputs: [['LATENT', 'LATENT', [301]]], values: [512, 512, 1] })],
		links: [[301, 1, 0, -20, 0, 'LATENT']]
	});
	const withInstances = (count: number): JsonObject =>
		workflow04(
			Array.from({ length: count }, (_, i) => uiNode(20 + i, SUB, { outputs: [['LATENT', 'LATENT', []]] })),
			[],
			{ definitions: { subgraphs: [latent] } }
		);

	it('are written back when the subgraph is used once', () => {
		const once = withInstances(1);
		const first = convertUiWorkflow(once, defs);
		if (!first.ok) throw new Error(JSON.stringify(first.errors));
		const changed = structuredClone(first.prompt);
		changed['20:1']!.inputs['width'] = 640;
		const again = convertUiWorkflow(writeWidgetValues(once, changed, defs), defs);
		expect(again.ok && again.prompt['20:1']!.inputs['width']).toBe(640);
	});

	it('are read-only in the form, with the reason, when it is used twice, and never written into the shared definition', () => {
		const twice = withInstances(2);
		const first = convertUiWorkflow(twice, defs);
		if (!first.ok) throw new Error(JSON.stringify(first.errors));
		const groups = workflowFieldGroups(first.prompt, defs, canvasLayout(twice));
		const width = groups.find((g) => g.id === '21:1')!.fields.find((f) => f.id === '21:1.width')!;
		expect(width.readOnly).toMatch(/subgraph "Canvas", used 2 times/);
		const changed = structuredClone(first.prompt);
		changed['21:1']!.inputs['width'] = 640;
		expect(writeWidgetValues(twice, changed, defs)).toEqual(twice);
	});
});
