import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importWorkflowTexts, promptDifference } from './import-workflow';
import { fixtureDefinitions } from './object-info.fixture';

const dir = 'tests/fixtures/workflow-files/';
const ui = readFileSync(dir + 'ui-workflow.json', 'utf8');
const api = readFileSync(dir + 'api-workflow.json', 'utf8');
const defs = { nodes: fixtureDefinitions() };

describe('importing the texts of a file', () => {
	it('converts a UI-format JSON and keeps the graph beside the prompt', () => {
		const result = importWorkflowTexts({ prompt: ui }, '"ui.json"', defs);
		expect(result).toMatchObject({ ok: true, source: 'json' });
		if (!result.ok) return;
		expect(result.ui?.['nodes']).toBeInstanceOf(Array);
		expect(promptDifference(JSON.parse(api), result.prompt)).toBeNull();
	});

	it('prefers the UI workflow of a file holding both, when it converts to the embedded prompt', () => {
		const result = importWorkflowTexts({ prompt: api, workflow: ui }, '"a.png"', defs);
		expect(result).toMatchObject({ ok: true, source: 'json', notes: [] });
		expect(result.ok && result.ui).toBeTruthy();
	});

	it('uses the embedded prompt, and says why, when the graph converts to another one', () => {
		const changed = JSON.parse(api);
		changed['3'].inputs.steps = 33;
		const result = importWorkflowTexts({ prompt: JSON.stringify(changed), workflow: ui }, '"a.png"', defs);
		expect(result.ok && result.prompt['3']!.inputs['steps']).toBe(33);
		expect(result.ok && result.notes?.join(' ')).toMatch(/embedded prompt is used.*node 3 \(KSampler\) input "steps" is 33/);
	});

	it('says the definitions are the cached copy', () => {
		const result = importWorkflowTexts({ prompt: ui }, '"ui.json"', { ...defs, cachedNote: 'Offline: converted with the cached copy.' });
		expect(result.ok && result.notes).toContain('Offline: converted with the cached copy.');
	});

	it('lists a missing model file and still imports', () => {
		const result = importWorkflowTexts({ prompt: ui.replace('v1-5-pruned-emaonly.safetensors', 'nope.safetensors') }, '"ui.json"', defs);
		expect(result).toMatchObject({ ok: true, missing: { models: [{ name: 'nope.safetensors', nodeId: '4' }] } });
	});

	it.each([
		['{"hello": 1}', /"x.json" is neither a ComfyUI workflow/],
		['{"nodes": [', /"x.json": the workflow is not valid JSON/],
		['', /"x.json" carries no workflow/],
		['{"nodes": [], "links": [], "version": 0.4}', /"x.json" has no nodes that run/],
		['{"nodes": [{"id": 1, "type": "A", "properties": {"__proto__": {"x": 1}}}], "links": []}', /"x.json" uses "__proto__"/]
	])('refuses %j naming the file', (text, message) => {
		expect(importWorkflowTexts({ prompt: text }, '"x.json"', defs)).toMatchObject({ ok: false, message });
	});

	it('needs node definitions for a UI-only workflow, but not for a file that embeds its prompt', () => {
		expect(importWorkflowTexts({ prompt: ui }, '"ui.json"', null)).toMatchObject({ ok: false, message: /node definitions/ });
		expect(importWorkflowTexts({ prompt: api, workflow: ui }, '"a.png"', null)).toMatchObject({ ok: true });
	});

	it('keeps a UI workflow whose node types the server lacks, naming them: it runs once the server has them', () => {
		const result = importWorkflowTexts({ prompt: ui.replace(/"VAEDecode"/g, '"FancyDecode"') }, '"ui.json"', defs);
		expect(result).toMatchObject({ ok: true, missing: { nodeTypes: [{ type: 'FancyDecode' }] } });
		if (!result.ok) return;
		expect(Object.values(result.prompt).map((n) => n.class_type)).toContain('FancyDecode');
		expect(result.ui).toBeDefined();
	});
});
