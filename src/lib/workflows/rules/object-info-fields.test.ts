import { describe, expect, it } from 'vitest';
import { nodeDefinitions } from '../../../../emulator/workflow/nodes';
import textToImage from './examples/text-to-image.json';
import type { ApiPrompt } from '../protocol/workflow-api';
import { parseObjectInfo, type NodeDefinitions } from '../protocol/object-info';
import { checkWorkflow, usesPartnerNodes } from './workflow-check';
import { applyValues, workflowFieldGroups, workflowValues } from './object-info-fields';
import { readFileSync } from 'node:fs';
import type { JsonObject } from '../../core/protocol/json';
import { canvasLayout } from './converter/canvas-layout';
import { fixtureDefinitions } from './converter/object-info.fixture';

const wire = JSON.parse(JSON.stringify(nodeDefinitions(['cat.png', 'dog.png'])));
const parsed = parseObjectInfo(wire);
const nodes: NodeDefinitions = parsed.ok ? parsed.nodes : {};
const prompt = textToImage as ApiPrompt;

describe('object_info to fields', () => {
	it('parses both combo forms and link types', () => {
		const ks = nodes['KSampler']!;
		expect(ks.inputs.find((i) => i.name === 'sampler_name')?.type).toMatchObject({
			kind: 'COMBO',
			choices: expect.arrayContaining(['euler'])
		});
		expect(ks.inputs.find((i) => i.name === 'model')?.type).toEqual({ kind: 'link', type: 'MODEL' });
		expect(nodes['CheckpointLoaderSimple']!.inputs[0]?.type).toMatchObject({ kind: 'COMBO' });
	});

	it('calls only seeds seeds: a PrimitiveInt’s value (control_after_generate in 0.3.64’s object_info) is an integer', () => {
		// As the real ComfyUI 0.3.64 describes them (its object_info, saved from the running server).
		const real = parseObjectInfo({
			PrimitiveInt: {
				input: { required: { value: ['INT', { min: -9223372036854775807, max: 9223372036854775807, control_after_generate: true }] } },
				output: ['INT'],
				name: 'PrimitiveInt',
				display_name: 'Int',
				category: 'utils/primitive',
				output_node: false
			},
			RandomNoise: {
				input: { required: { noise_seed: ['INT', { default: 0, min: 0, max: 18446744073709551615, control_after_generate: true }] } },
				output: ['NOISE'],
				name: 'RandomNoise',
				display_name: 'RandomNoise',
				category: 'sampling',
				output_node: false
			}
		} as unknown as JsonObject);
		const defs = real.ok ? real.nodes : {};
		const groups = workflowFieldGroups(
			{ '1': { class_type: 'PrimitiveInt', inputs: { value: 256 } }, '2': { class_type: 'RandomNoise', inputs: { noise_seed: 4 } } },
			defs
		);
		const kinds = groups.flatMap((g) => g.fields.map((f) => [f.path.join('.'), f.kind]));
		expect(kinds).toEqual(
			expect.arrayContaining([
				['1.value', 'integer'],
				['2.noise_seed', 'seed']
			])
		);
	});

	it('makes one group per node with widget inputs, titled from _meta.title, links left out, most changed first', () => {
		const groups = workflowFieldGroups(prompt, nodes);
		// Prompts, then the seed (KSampler), the size (Empty Latent Image), then the rest in node order.
		expect(groups.map((g) => g.title)).toEqual([
			'CLIP Text Encode (Positive)',
			'CLIP Text Encode (Negative)',
			'KSampler',
			'Empty Latent Image',
			'Load Checkpoint',
			'Save Image'
		]);
		const ks = groups[2]!.fields;
		expect(ks.map((f) => f.path[1])).toEqual(['seed', 'steps', 'cfg', 'sampler_name', 'scheduler', 'denoise']);
		expect(ks[0]).toMatchObject({ kind: 'seed', min: 0 });
		expect(ks[1]).toMatchObject({ kind: 'integer', min: 1, max: 10000, slider: true });
		expect(ks[2]).toMatchObject({ kind: 'number', step: 0.1, round: 0.01, slider: true });
		expect(ks[3]).toMatchObject({ kind: 'enum' });
		expect(groups[0]!.fields[0]).toMatchObject({ kind: 'textarea', main: true });
	});

	it('reads a FLOAT’s round as ComfyUI’s editor does: explicit round kept, absent or false taken from the step', () => {
		const floats = (round: unknown, step?: number) =>
			workflowFieldGroups(
				{ '1': { class_type: 'F', inputs: { x: 1 } } },
				{
					F: {
						name: 'F',
						displayName: 'F',
						category: '',
						outputNode: false,
						outputs: [],
						inputs: [
							{
								name: 'x',
								required: true,
								type: { kind: 'FLOAT' },
								options: { ...(step !== undefined ? { step } : {}), ...(round !== undefined ? { round } : {}) }
							}
						]
					} as unknown as NodeDefinitions[string]
				}
			)[0]!.fields[0];
		expect(floats(0.01, 0.1)).toMatchObject({ step: 0.1, round: 0.01 });
		expect(floats(false, 0.01)).toMatchObject({ round: 0.01 });
		expect(floats(undefined, 0.001)).toMatchObject({ round: 0.001 });
		expect(floats(undefined, 1)).not.toHaveProperty('round');
	});

	it('maps LoadImage to an image picker that knows uploaded names', () => {
		const withLoad: ApiPrompt = { '1': { class_type: 'LoadImage', inputs: { image: 'cat.png' } } };
		const [group] = workflowFieldGroups(withLoad, nodes);
		expect(group!.fields[0]).toMatchObject({ kind: 'media', transport: 'upload', accept: 'image', known: ['cat.png', 'dog.png'] });
	});

	it('round-trips values into a new workflow without touching the original', () => {
		const values = workflowValues(prompt);
		values['6']!['text'] = 'a red fox';
		const next = applyValues(prompt, values);
		expect(next['6']!.inputs['text']).toBe('a red fox');
		expect(next['6']!.inputs['clip']).toEqual(['4', 1]);
		expect(prompt['6']!.inputs['text']).not.toBe('a red fox');
	});
});

describe('checking a workflow against the server', () => {
	it('passes the demo workflow', () => {
		expect(checkWorkflow(prompt, nodes)).toEqual([]);
		expect(usesPartnerNodes(prompt, nodes)).toBe(false);
	});

	it('names unknown node types, dangling links, bad slots and missing inputs with id and title', () => {
		const broken: ApiPrompt = JSON.parse(JSON.stringify(prompt));
		broken['10'] = { class_type: 'UpscaleWithMagic', inputs: {}, _meta: { title: 'Magic' } };
		broken['8']!.inputs['samples'] = ['99', 0];
		broken['8']!.inputs['vae'] = ['4', 7];
		delete broken['5']!.inputs['width'];
		const messages = checkWorkflow(broken, nodes).map((p) => p.message);
		expect(messages).toContain(
			'Node 10 "Magic" uses the node type "UpscaleWithMagic", which this server does not have (a custom node that is not installed?).'
		);
		expect(messages).toContain('Node 8 "VAE Decode": input "samples" links to node 99, which is not in the workflow.');
		const newer = checkWorkflow({ ...prompt, '11': { class_type: 'SaveAudioAdvanced', inputs: {}, _meta: { title: 'Save' } } }, nodes);
		expect(newer.map((p) => p.message)).toContain(
			'Node 11 "Save" uses the node type "SaveAudioAdvanced", which this server does not have: a core node of ComfyUI newer than 0.3.64 (comfy_extras/nodes_audio.py): update ComfyUI on this server, or pick another server.'
		);
		expect(messages).toContain('Node 8 "VAE Decode": input "vae" links to output 7 of node 4 "Load Checkpoint", which has 3 outputs.');
		expect(messages).toContain('Node 5 "Empty Latent Image": the required input "width" is missing.');
	});
});

// Prompts group (y 100) first, then nodes by y: KSampler (186), Save Image (189), Load Checkpoint (474), Empty Latent (609).
const EXPECTED_ORDER = [
	['Positive prompt', 'Prompts'],
	['Negative prompt', 'Prompts'],
	['KSampler', null],
	['Save Image', null],
	['Load Checkpoint', null],
	['Empty Latent Image', null]
];

describe('the form of a UI-format workflow', () => {
	const ui = JSON.parse(readFileSync('tests/fixtures/workflow-files/ui-workflow.json', 'utf8')) as JsonObject;
	const api = JSON.parse(readFileSync('tests/fixtures/workflow-files/api-workflow.json', 'utf8')) as ApiPrompt;

	it('groups by the canvas groups, in reading order, with node titles', () => {
		const groups = workflowFieldGroups(api, fixtureDefinitions(), canvasLayout(ui));
		expect(groups.map((g) => [g.title, g.section?.title ?? null])).toEqual(EXPECTED_ORDER);
		expect(groups.find((g) => g.id === '6')).toMatchObject({ title: 'Positive prompt', section: { title: 'Prompts', color: '#3f789e' } });
	});

	it('hides nothing and keeps ids when there is no layout (ordered by what is changed most)', () => {
		expect(workflowFieldGroups(api, fixtureDefinitions()).map((g) => g.id)).toEqual(['6', '7', '3', '5', '4', '9']);
	});

	it('reads app mode and collapsed nodes', () => {
		const withApp = structuredClone(ui);
		withApp['extra'] = {
			linearData: {
				inputs: [
					[6, 'text'],
					[3, 'seed']
				],
				outputs: [9]
			}
		};
		(withApp['nodes'] as JsonObject[])[0]!['flags'] = { collapsed: true };
		const layout = canvasLayout(withApp);
		expect(layout.appInputs).toEqual(['6.text', '3.seed']);
		expect(workflowFieldGroups(api, fixtureDefinitions(), layout).find((g) => g.id === '4')?.collapsed).toBe(true);
	});
});
