/**
 * Converting a UI-format workflow of about 1,000 nodes (nested subgraphs, reroutes, notes, a
 * bypassed node per stage) to the API format: the file's text to the prompt (Python-JSON parse +
 * conversion), against a plain `JSON.parse` of the same text in the same run. Target: under 20x.
 * The workflow is generated deterministically, so every run converts the same file.
 */
import { performance } from 'node:perf_hooks';
import { convertUiWorkflow } from '../src/lib/workflows/rules/converter/convert';
import { parsePythonJson } from '../src/lib/workflows/rules/converter/json-python';
import { fixtureDefinitions } from '../src/lib/workflows/rules/converter/object-info.fixture';
import { subgraphDefinition, toSchemaV1, uiNode, workflow04, type LinkSpec } from '../src/lib/workflows/rules/converter/ui-builder.fixture';
import type { JsonObject } from '../src/lib/core/protocol/json';
import { median, ratio, verdict } from './support/stats';
import { watchdog } from './support/watchdog';
import { report } from './support/report';

const STAGES = 40;
const INVERTS = 17;
const ROUNDS = 40;
const TARGET = 20;

const coreId = (k: number) => `c0000000-0000-4000-8000-${String(k).padStart(12, '0')}`;
const stageId = (k: number) => `d0000000-0000-4000-8000-${String(k).padStart(12, '0')}`;

/** "Core": a KSampler behind a reroute, inputs and output wired through. */
function core(k: number): JsonObject {
	return subgraphDefinition({
		id: coreId(k),
		name: 'Core',
		inputs: [
			['model', 'MODEL', [1]],
			['positive', 'CONDITIONING', [2]],
			['negative', 'CONDITIONING', [3]],
			['latent_image', 'LATENT', [4]],
			['seed', 'INT', [6]]
		],
		outputs: [['LATENT', 'LATENT', [7]]],
		nodes: [
			uiNode(1, 'Reroute', { inputs: [['', '*', 1]], outputs: [['', 'MODEL', [5]]] }),
			uiNode(2, 'KSampler', {
				inputs: [
					['model', 'MODEL', 5],
					['positive', 'CONDITIONING', 2],
					['negative', 'CONDITIONING', 3],
					['latent_image', 'LATENT', 4],
					['seed', 'INT', 6, 'seed']
				],
				outputs: [['LATENT', 'LATENT', [7]]],
				values: [1, 'randomize', 20, 7, 'euler', 'normal', 1]
			})
		],
		links: [
			[1, -10, 0, 1, 0, 'MODEL'],
			[5, 1, 0, 2, 0, 'MODEL'],
			[2, -10, 1, 2, 1, 'CONDITIONING'],
			[3, -10, 2, 2, 2, 'CONDITIONING'],
			[4, -10, 3, 2, 3, 'LATENT'],
			[6, -10, 4, 2, 4, 'INT'],
			[7, 2, 0, -20, 0, 'LATENT']
		]
	});
}

/** "Stage": prompts, Core, decode, a chain of inverts (one bypassed), save, a note. */
function stage(k: number): JsonObject {
	const nodes: JsonObject[] = [
		uiNode(1, 'CLIPTextEncode', {
			inputs: [
				['clip', 'CLIP', 1],
				['text', 'STRING', 3, 'text']
			],
			outputs: [['CONDITIONING', 'CONDITIONING', [4]]],
			values: ['x']
		}),
		uiNode(2, 'CLIPTextEncode', {
			inputs: [['clip', 'CLIP', 2]],
			outputs: [['CONDITIONING', 'CONDITIONING', [5]]],
			values: ['blurry, low quality']
		}),
		uiNode(3, coreId(k), {
			inputs: [
				['model', 'MODEL', 6],
				['positive', 'CONDITIONING', 4],
				['negative', 'CONDITIONING', 5],
				['latent_image', 'LATENT', 7],
				['seed', 'INT', 8, 'seed']
			],
			outputs: [['LATENT', 'LATENT', [9]]],
			values: [5]
		}),
		uiNode(4, 'VAEDecode', {
			inputs: [
				['samples', 'LATENT', 9],
				['vae', 'VAE', 10]
			],
			outputs: [['IMAGE', 'IMAGE', [100]]]
		}),
		uiNode(5, 'Note', { values: ['a note about this stage'] })
	];
	const links: LinkSpec[] = [
		[1, -10, 1, 1, 0, 'CLIP'],
		[2, -10, 1, 2, 0, 'CLIP'],
		[3, -10, 4, 1, 1, 'STRING'],
		[4, 1, 0, 3, 1, 'CONDITIONING'],
		[5, 2, 0, 3, 2, 'CONDITIONING'],
		[6, -10, 0, 3, 0, 'MODEL'],
		[7, -10, 3, 3, 3, 'LATENT'],
		[8, -10, 5, 3, 4, 'INT'],
		[9, 3, 0, 4, 0, 'LATENT'],
		[10, -10, 2, 4, 1, 'VAE']
	];
	for (let i = 0; i < INVERTS; i++) {
		const id = 10 + i;
		nodes.push(
			uiNode(id, 'ImageInvert', { mode: i === 5 ? 4 : 0, inputs: [['image', 'IMAGE', 100 + i]], outputs: [['IMAGE', 'IMAGE', [101 + i]]] })
		);
		links.push([100 + i, i === 0 ? 4 : id - 1, 0, id, 0, 'IMAGE']);
	}
	nodes.push(uiNode(9, 'SaveImage', { inputs: [['images', 'IMAGE', 100 + INVERTS]], values: ['stage'] }));
	links.push([100 + INVERTS, 10 + INVERTS - 1, 0, 9, 0, 'IMAGE']);
	return subgraphDefinition({
		id: stageId(k),
		name: `Stage ${k}`,
		inputs: [
			['model', 'MODEL', [6]],
			['clip', 'CLIP', [1, 2]],
			['vae', 'VAE', [10]],
			['latent', 'LATENT', [7]],
			['text', 'STRING', [3]],
			['seed', 'INT', [8]]
		],
		outputs: [],
		nodes,
		links
	});
}

/**
 * `distinct`: every stage is its own subgraph (with its own inner one), as a workflow whose parts
 * were each turned into subgraphs is saved: the file holds every node. Otherwise one stage is used
 * 40 times: the file is small and the unfolding is all the work.
 */
function generate(distinct: boolean): string {
	const nodes: JsonObject[] = [
		uiNode(1, 'CheckpointLoaderSimple', {
			outputs: [
				['MODEL', 'MODEL', []],
				['CLIP', 'CLIP', []],
				['VAE', 'VAE', []]
			],
			values: ['v1-5-pruned-emaonly.safetensors']
		}),
		uiNode(2, 'EmptyLatentImage', { outputs: [['LATENT', 'LATENT', []]], values: [512, 512, 1] }),
		uiNode(3, 'PrimitiveNode', { outputs: [['INT', 'INT', []]], values: [1234, 'fixed'] })
	];
	const links: LinkSpec[] = [];
	let link = 1;
	for (let s = 0; s < STAGES; s++) {
		const id = 100 + s;
		const wire = (from: number, slot: number, input: number, type: string) => {
			links.push([link, from, slot, id, input, type]);
			return link++;
		};
		nodes.push(
			uiNode(id, stageId(distinct ? s : 0), {
				title: `Stage ${s}`,
				inputs: [
					['model', 'MODEL', wire(1, 0, 0, 'MODEL')],
					['clip', 'CLIP', wire(1, 1, 1, 'CLIP')],
					['vae', 'VAE', wire(1, 2, 2, 'VAE')],
					['latent', 'LATENT', wire(2, 0, 3, 'LATENT')],
					['text', 'STRING', null, 'text'],
					['seed', 'INT', null, 'seed']
				],
				values: [`a picture, variation ${s}`, s]
			})
		);
	}
	const kinds = distinct ? STAGES : 1;
	const subgraphs = Array.from({ length: kinds }, (_, k) => [stage(k), core(k)]).flat();
	return JSON.stringify(toSchemaV1(workflow04(nodes, links, { definitions: { subgraphs } })));
}

watchdog(5);
const definitions = fixtureDefinitions();
const expanded = 3 + STAGES * (1 + 5 + 1 + 2 + INVERTS + 1);

function convertText(text: string): number {
	const parsed = parsePythonJson(text);
	if (!parsed.ok) throw new Error(parsed.message);
	const result = convertUiWorkflow(parsed.value, definitions);
	if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
	return Object.keys(result.prompt).length;
}

function time(fn: () => unknown): number {
	const started = performance.now();
	fn();
	return performance.now() - started;
}

function measure(label: string, text: string): { parseMs: number; convertMs: number } {
	const sent = convertText(text);
	for (let i = 0; i < 5; i++) {
		JSON.parse(text);
		convertText(text);
	}
	const parseTimes: number[] = [];
	const convertTimes: number[] = [];
	for (let i = 0; i < ROUNDS; i++) {
		// Interleaved, so a busy machine slows both alike.
		parseTimes.push(time(() => JSON.parse(text)));
		convertTimes.push(time(() => convertText(text)));
	}
	const parseMs = median(parseTimes);
	const convertMs = median(convertTimes);
	console.log(`\n${label}: ${(text.length / 1024).toFixed(0)} KiB, ${expanded} nodes once subgraphs are unfolded, ${sent} in the prompt`);
	console.log(`  JSON.parse of the file:   median ${parseMs.toFixed(2)} ms over ${ROUNDS} rounds`);
	console.log(`  file text → API prompt:   median ${convertMs.toFixed(2)} ms over ${ROUNDS} rounds`);
	console.log(`  ratio: ${ratio(convertMs, parseMs)}`);
	return { parseMs, convertMs };
}

const file = measure('Every subgraph defined once (the file holds the 1,000 nodes)', generate(true));
const distinct = file.convertMs / file.parseMs;
const reused = measure('One subgraph used 40 times (for information: a 48 KiB file, all the work is unfolding)', generate(false));
console.log(
	`\ntarget: converting the 1,000-node file under ${TARGET}x its JSON.parse: ${distinct.toFixed(2)}x, ${verdict(distinct < TARGET)}`
);
report({
	name: '1,000-node file text to API prompt (baseline: its JSON.parse)',
	figure: file.convertMs,
	unit: 'ms',
	baseline: file.parseMs,
	target: `< ${TARGET}x baseline`,
	met: distinct < TARGET
});
report({ name: 'one subgraph used 40 times, to API prompt', figure: reused.convertMs, unit: 'ms', baseline: reused.parseMs });
