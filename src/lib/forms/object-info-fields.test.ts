import { describe, expect, it } from 'vitest';
import { nodeDefinitions } from '../../../emulator/workflow/nodes';
import textToImage from '../examples/text-to-image.json';
import type { ApiPrompt } from '../wire/workflow-api';
import { parseObjectInfo, type NodeDefinitions } from '../domain/object-info';
import { checkWorkflow, usesPartnerNodes } from '../domain/workflow-check';
import { applyValues, workflowFieldGroups, workflowValues } from './object-info-fields';

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

	it('makes one group per node with widget inputs, titled from _meta.title, links left out', () => {
		const groups = workflowFieldGroups(prompt, nodes);
		expect(groups.map((g) => g.title)).toEqual([
			'KSampler',
			'Load Checkpoint',
			'Empty Latent Image',
			'CLIP Text Encode (Positive)',
			'CLIP Text Encode (Negative)',
			'Save Image'
		]);
		const ks = groups[0]!.fields;
		expect(ks.map((f) => f.path[1])).toEqual(['seed', 'steps', 'cfg', 'sampler_name', 'scheduler', 'denoise']);
		expect(ks[0]).toMatchObject({ kind: 'seed', min: 0 });
		expect(ks[1]).toMatchObject({ kind: 'integer', min: 1, max: 10000, slider: true });
		expect(ks[2]).toMatchObject({ kind: 'number', step: 0.1, slider: true });
		expect(ks[3]).toMatchObject({ kind: 'enum' });
		expect(groups[3]!.fields[0]).toMatchObject({ kind: 'textarea', main: true });
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
		expect(messages).toContain('Node 8 "VAE Decode": input "vae" links to output 7 of node 4 "Load Checkpoint", which has 3 outputs.');
		expect(messages).toContain('Node 5 "Empty Latent Image": the required input "width" is missing.');
	});
});
