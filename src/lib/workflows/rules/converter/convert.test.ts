/**
 * Golden pairs: a UI-format workflow and the prompt ComfyUI's editor sends for it. Each expected
 * prompt was worked out by hand from the editor's source (graphToPrompt in src/utils/executionUtil.ts,
 * ExecutableNodeDTO.resolveInput/resolveOutput, the widget code; frontend 1.2x, see
 * docs/ARCHITECTURE.md), and is compared as sent (through JSON.stringify, so NaN is null). Every
 * prompt also goes through the emulator's validation (ComfyUI's validate_prompt) against the same
 * object_info; where that validation must fail (a muted node's dependant, a NaN), the test says
 * exactly how.
 */
import { describe, expect, it } from 'vitest';
import type { Json, JsonObject } from '../../../core/protocol/json';
import type { ApiPrompt } from '../../protocol/workflow-api';
import { bypassInput, convertUiWorkflow, type ConvertResult } from './convert';
import type { ExecNode } from './subgraphs';
import { parsePythonJson } from './json-python';
import { fixtureDefinitions, validateAgainstFixture } from './object-info.fixture';
import { edit, subgraphDefinition, toSchemaV1, txt2imgNodes, uiNode, workflow04, type LinkSpec } from './ui-builder.fixture';

const definitions = fixtureDefinitions();

function convert(workflow: JsonObject): Extract<ConvertResult, { ok: true }> {
	const result = convertUiWorkflow(workflow, definitions);
	if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
	return result;
}

const sent = (prompt: ApiPrompt): unknown => JSON.parse(JSON.stringify(prompt));

function expectValid(prompt: ApiPrompt): void {
	const result = validateAgainstFixture(prompt);
	expect(result.ok ? 'valid' : result.error.details).toBe('valid');
}

const TXT2IMG_PROMPT = {
	'4': {
		class_type: 'CheckpointLoaderSimple',
		inputs: { ckpt_name: 'v1-5-pruned-emaonly.safetensors' },
		_meta: { title: 'Load Checkpoint' }
	},
	'6': { class_type: 'CLIPTextEncode', inputs: { text: 'a cat', clip: ['4', 1] }, _meta: { title: 'Positive' } },
	'7': { class_type: 'CLIPTextEncode', inputs: { text: 'blurry', clip: ['4', 1] }, _meta: { title: 'CLIP Text Encode (Prompt)' } },
	'5': { class_type: 'EmptyLatentImage', inputs: { width: 512, height: 768, batch_size: 1 }, _meta: { title: 'Empty Latent Image' } },
	'3': {
		class_type: 'KSampler',
		// "randomize" after the seed is the control-after-generate value: the editor never sends it.
		inputs: {
			seed: 42,
			steps: 20,
			cfg: 7.5,
			sampler_name: 'euler',
			scheduler: 'normal',
			denoise: 1,
			model: ['4', 0],
			positive: ['6', 0],
			negative: ['7', 0],
			latent_image: ['5', 0]
		},
		_meta: { title: 'KSampler' }
	},
	'8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] }, _meta: { title: 'VAE Decode' } },
	'9': { class_type: 'SaveImage', inputs: { filename_prefix: 'cat', images: ['8', 0] }, _meta: { title: 'Save Image' } }
};

describe('both serialisations', () => {
	const { nodes, links } = txt2imgNodes();
	const legacy = workflow04(nodes, links);
	it.each([
		['LiteGraph 0.4 (links as arrays)', legacy],
		['schema version 1 (links as objects)', toSchemaV1(legacy)]
	])('%s gives the same prompt, titles kept as _meta.title', (_, workflow) => {
		const result = convert(workflow);
		expect(sent(result.prompt)).toEqual(TXT2IMG_PROMPT);
		expect(result.warnings).toEqual([]);
		expectValid(result.prompt);
	});
});

describe('JSON as the server writes it', () => {
	it('reads NaN and Infinity in widget values; they are sent as null, and the server refuses them for a FLOAT', () => {
		const { nodes, links } = txt2imgNodes();
		const text = JSON.stringify(workflow04(nodes, links)).replace(
			'[42,"randomize",20,7.5,"euler","normal",1]',
			'[42,"randomize",20,NaN,"euler","normal",-Infinity]'
		);
		expect(text).toContain('NaN');
		const parsed = parsePythonJson(text);
		if (!parsed.ok) throw new Error(parsed.message);
		const result = convert(parsed.value as JsonObject);
		expect(sent(result.prompt)).toEqual({
			...TXT2IMG_PROMPT,
			'3': { ...TXT2IMG_PROMPT['3'], inputs: { ...TXT2IMG_PROMPT['3'].inputs, cfg: null, denoise: null } }
		});
		const validation = validateAgainstFixture(result.prompt);
		expect(validation.ok).toBe(false);
		expect(validation.nodeErrors['3']?.errors.map((e) => [e.type, e.extra_info.input_name])).toEqual([
			['invalid_input_type', 'cfg'],
			['invalid_input_type', 'denoise']
		]);
	});
});

/** The text-to-image graph with KSampler's seed taken from a NoiseSeeds node (id 60). */
function withSeedFrom(values: Json[] | JsonObject, extraNodes: JsonObject[] = [], extraLinks: LinkSpec[] = []) {
	const base = txt2imgNodes();
	return edit(
		base,
		[
			uiNode(60, 'NoiseSeeds', { title: 'Seeds', outputs: [['INT', 'INT', [60]]], values }),
			uiNode(3, 'KSampler', {
				inputs: [
					['model', 'MODEL', 1],
					['positive', 'CONDITIONING', 4],
					['negative', 'CONDITIONING', 6],
					['latent_image', 'LATENT', 2],
					['seed', 'INT', 60, 'seed']
				],
				outputs: [['LATENT', 'LATENT', [7]]],
				values: [42, 'randomize', 20, 7.5, 'euler', 'normal', 1]
			}),
			...extraNodes
		],
		[[60, 60, 0, 3, 4, 'INT'], ...extraLinks]
	);
}

const SEEDS_NODE = {
	class_type: 'NoiseSeeds',
	inputs: { noise_seed: 5, seed: 6, sampler: 'heun', strength: 2.5 },
	_meta: { title: 'Seeds' }
};
const SAMPLER_SEEDED = { ...TXT2IMG_PROMPT['3'], inputs: { ...TXT2IMG_PROMPT['3'].inputs, seed: ['60', 0] } };

describe('widget values', () => {
	it.each([
		// noise_seed: control by name (1 value); seed: control_after_generate false (none); combo with control (2: mode, filter).
		['by position, with the editor-only values', [5, 'increment', 6, 'heun', 'fixed', '', 2.5]],
		['by position, as newer editors store them (no control values)', [5, 6, 'heun', 2.5]],
		['keyed by widget name', { noise_seed: 5, seed: 6, sampler: 'heun', strength: 2.5, preview: { hidden: true } }]
	])('%s; a widget converted to an input takes its link', (_, values) => {
		const { nodes, links } = withSeedFrom(values);
		const result = convert(workflow04(nodes, links));
		expect(sent(result.prompt)).toEqual({ ...TXT2IMG_PROMPT, '3': SAMPLER_SEEDED, '60': SEEDS_NODE });
		expect(result.warnings).toEqual([]);
		expectValid(result.prompt);
	});

	it('a count that fits no layout is assigned by position, missing ones take their defaults, and it is reported', () => {
		const { nodes, links } = edit(txt2imgNodes(), [
			uiNode(3, 'KSampler', {
				title: 'Old sampler',
				inputs: [
					['model', 'MODEL', 1],
					['positive', 'CONDITIONING', 4],
					['negative', 'CONDITIONING', 6],
					['latent_image', 'LATENT', 2]
				],
				outputs: [['LATENT', 'LATENT', [7]]],
				values: [42, 'fixed', 30]
			})
		]);
		const result = convert(workflow04(nodes, links));
		expect(sent(result.prompt)).toEqual({
			...TXT2IMG_PROMPT,
			'3': {
				...TXT2IMG_PROMPT['3'],
				// A combo's default is its first option: ComfyUI 0.3.64 lists `simple` first among schedulers.
				inputs: { ...TXT2IMG_PROMPT['3'].inputs, steps: 30, cfg: 8, sampler_name: 'euler', scheduler: 'simple', denoise: 1 },
				_meta: { title: 'Old sampler' }
			}
		});
		expect(result.warnings).toHaveLength(1);
		expect(result.warnings[0]).toMatchObject({ kind: 'widget-count', nodeId: '3' });
		expect(result.warnings[0]!.message).toContain('"Old sampler"');
		expectValid(result.prompt);
	});

	it('skips the upload button of an image loader, and sends a list value as {"__value__": [...]}', () => {
		const { nodes, links } = edit(
			txt2imgNodes(),
			[
				uiNode(70, 'LoadImage', {
					outputs: [
						['IMAGE', 'IMAGE', [70]],
						['MASK', 'MASK', []]
					],
					values: ['example.png', 'image']
				}),
				uiNode(71, 'TagPicker', { inputs: [['image', 'IMAGE', 70]], outputs: [['IMAGE', 'IMAGE', [71]]], values: [['red', 'blue']] }),
				uiNode(72, 'PreviewImage', { inputs: [['images', 'IMAGE', 71]] })
			],
			[
				[70, 70, 0, 71, 0, 'IMAGE'],
				[71, 71, 0, 72, 0, 'IMAGE']
			]
		);
		const result = convert(workflow04(nodes, links));
		expect(sent(result.prompt)).toEqual({
			...TXT2IMG_PROMPT,
			'70': { class_type: 'LoadImage', inputs: { image: 'example.png' }, _meta: { title: 'Load Image' } },
			'71': { class_type: 'TagPicker', inputs: { tags: { __value__: ['red', 'blue'] }, image: ['70', 0] }, _meta: { title: 'TagPicker' } },
			'72': { class_type: 'PreviewImage', inputs: { images: ['71', 0] }, _meta: { title: 'Preview Image' } }
		});
		// ComfyUI's validate_inputs (and the emulator's) unwraps {"__value__": ...}, then looks the value
		// up in the combo's options: a list is not one of them, so it is the one complaint.
		const validation = validateAgainstFixture(result.prompt);
		expect(validation.ok).toBe(true);
		expect(Object.keys(validation.nodeErrors)).toEqual(['71']);
		expect(validation.nodeErrors['71']!.errors.map((e) => [e.type, e.extra_info.input_name])).toEqual([['value_not_in_list', 'tags']]);
	});
});

describe('virtual nodes', () => {
	it('a PrimitiveNode puts its value into every widget it feeds (its control value is not sent)', () => {
		const { nodes, links } = edit(
			txt2imgNodes(),
			[
				uiNode(20, 'PrimitiveNode', { title: 'Size', outputs: [['INT', 'INT', [20, 21]]], values: [1024, 'fixed'] }),
				uiNode(5, 'EmptyLatentImage', {
					inputs: [
						['width', 'INT', 20, 'width'],
						['height', 'INT', 21, 'height']
					],
					outputs: [['LATENT', 'LATENT', [2]]],
					values: [512, 768, 1]
				})
			],
			[
				[20, 20, 0, 5, 0, 'INT'],
				[21, 20, 0, 5, 1, 'INT']
			]
		);
		const result = convert(workflow04(nodes, links));
		expect(sent(result.prompt)).toEqual({
			...TXT2IMG_PROMPT,
			'5': { ...TXT2IMG_PROMPT['5'], inputs: { width: 1024, height: 1024, batch_size: 1 } }
		});
		expectValid(result.prompt);
	});

	it('Reroute nodes are followed, Note and MarkdownNote dropped, native reroutes ignored', () => {
		const base = edit(
			txt2imgNodes(),
			[
				uiNode(30, 'Reroute', { inputs: [['', '*', 1]], outputs: [['', 'MODEL', [31]]] }),
				uiNode(31, 'Reroute', { inputs: [['', '*', 31]], outputs: [['', 'MODEL', [32]]] }),
				uiNode(40, 'Note', { values: ['remember the cat'] }),
				uiNode(41, 'MarkdownNote', { values: ['# cat'] })
			],
			[
				[1, 4, 0, 30, 0, 'MODEL'],
				[31, 30, 0, 31, 0, 'MODEL'],
				[32, 31, 0, 3, 0, 'MODEL']
			]
		);
		const workflow = toSchemaV1(workflow04(base.nodes, base.links));
		// A native reroute: a point the link passes through, drawn by the editor only.
		(workflow['links'] as JsonObject[])[0]!['parentId'] = 1;
		workflow['extra'] = { reroutes: [{ id: 1, pos: [10, 10], linkIds: [2] }] };
		const kSampler = (workflow['nodes'] as JsonObject[]).find((n) => n['id'] === 3)!;
		(kSampler['inputs'] as JsonObject[])[0]!['link'] = 32;
		const result = convert(workflow);
		expect(sent(result.prompt)).toEqual(TXT2IMG_PROMPT);
		expectValid(result.prompt);
	});
});

describe('muted and bypassed nodes', () => {
	it('a muted node is left out, and so are the inputs linked to it; its dependants stay', () => {
		const { nodes, links } = edit(txt2imgNodes(), [
			uiNode(8, 'VAEDecode', {
				mode: 2,
				inputs: [
					['samples', 'LATENT', 7],
					['vae', 'VAE', 8]
				],
				outputs: [['IMAGE', 'IMAGE', [9]]]
			})
		]);
		const result = convert(workflow04(nodes, links));
		const { '8': _muted, ...rest } = TXT2IMG_PROMPT;
		expect(sent(result.prompt)).toEqual({ ...rest, '9': { ...TXT2IMG_PROMPT['9'], inputs: { filename_prefix: 'cat' } } });
		// The server then reports what is missing, as it does for the editor's prompt.
		const validation = validateAgainstFixture(result.prompt);
		expect(validation.ok).toBe(false);
		expect(validation.nodeErrors['9']?.errors.map((e) => [e.type, e.details])).toEqual([['required_input_missing', 'images']]);
	});

	it('a bypassed node between two typed links passes the input of the same slot through', () => {
		const { nodes, links } = edit(
			txt2imgNodes(),
			[
				uiNode(10, 'ImageInvert', { mode: 4, inputs: [['image', 'IMAGE', 9]], outputs: [['IMAGE', 'IMAGE', [10]]] }),
				uiNode(9, 'SaveImage', { inputs: [['images', 'IMAGE', 10]], values: ['cat'] })
			],
			[
				[9, 8, 0, 10, 0, 'IMAGE'],
				[10, 10, 0, 9, 0, 'IMAGE']
			]
		);
		const result = convert(workflow04(nodes, links));
		expect(sent(result.prompt)).toEqual(TXT2IMG_PROMPT);
		expectValid(result.prompt);
	});

	it('when the same slot does not fit the type, the first input of that type is passed through', () => {
		const { nodes, links } = edit(
			txt2imgNodes(),
			[
				uiNode(12, 'LoadImage', {
					outputs: [
						['IMAGE', 'IMAGE', []],
						['MASK', 'MASK', [12]]
					],
					values: ['example.png', 'image']
				}),
				uiNode(11, 'MaskThenImage', {
					mode: 4,
					inputs: [
						['mask', 'MASK', 12],
						['image', 'IMAGE', 9]
					],
					outputs: [['IMAGE', 'IMAGE', [11]]]
				}),
				uiNode(9, 'SaveImage', { inputs: [['images', 'IMAGE', 11]], values: ['cat'] })
			],
			[
				[12, 12, 1, 11, 0, 'MASK'],
				[9, 8, 0, 11, 1, 'IMAGE'],
				[11, 11, 0, 9, 0, 'IMAGE']
			]
		);
		const result = convert(workflow04(nodes, links));
		expect(sent(result.prompt)).toEqual({
			...TXT2IMG_PROMPT,
			'12': { class_type: 'LoadImage', inputs: { image: 'example.png' }, _meta: { title: 'Load Image' } }
		});
		expectValid(result.prompt);
	});
});

describe("the editor's bypass rule (which input passes to an output)", () => {
	/** A bypassed node with these input types and one output of `output` type. */
	const bypassed = (inputs: string[], output: string): ExecNode =>
		({
			node: {
				inputs: inputs.map((type, i) => ({ name: `in${i}`, type, link: String(i), widgetName: undefined })),
				outputs: [{ name: 'out', type: output }]
			}
		}) as unknown as ExecNode;

	it.each([
		{ rule: 'the same slot, when it fits the output and the target', inputs: ['IMAGE', 'MASK'], output: 'IMAGE', target: 'IMAGE', slot: 0 },
		{
			rule: 'else the first input of exactly the target type',
			inputs: ['MASK', 'LATENT', 'IMAGE'],
			output: 'IMAGE',
			target: 'IMAGE',
			slot: 2
		},
		{ rule: 'else the first compatible one (a type list)', inputs: ['MASK', 'IMAGE,MASK'], output: 'IMAGE', target: 'IMAGE', slot: 1 },
		{ rule: 'else the first compatible one (`*` matches anything)', inputs: ['MASK', '*'], output: 'IMAGE', target: 'IMAGE', slot: 1 },
		{ rule: 'a `*` target takes the same slot, untyped', inputs: ['MASK', 'LATENT'], output: 'IMAGE', target: '*', slot: 0 },
		{ rule: 'a `*` target past the inputs takes input 0', inputs: ['MASK'], output: 'IMAGE', target: '*', slot: 0, at: 1 },
		{ rule: 'nothing compatible: the link is dropped', inputs: ['MASK', 'LATENT'], output: 'IMAGE', target: 'IMAGE', slot: -1 }
	])('$rule', ({ inputs, output, target, slot, at }) => {
		expect(bypassInput(bypassed(inputs, output), at ?? 0, target)).toBe(slot);
	});
});

describe('subgraphs and group nodes', () => {
	const SUB_A = 'a0000000-0000-4000-8000-000000000001';
	const SUB_B = 'b0000000-0000-4000-8000-000000000002';

	/** Root → subgraph "Sampling" (instance 10) → subgraph "Sampler core" (instance 3 inside it). */
	function nestedWorkflow(): JsonObject {
		const samplerCore = subgraphDefinition({
			id: SUB_B,
			name: 'Sampler core',
			inputs: [
				['model', 'MODEL', [201]],
				['positive', 'CONDITIONING', [202]],
				['negative', 'CONDITIONING', [203]],
				['latent_image', 'LATENT', [204]]
			],
			outputs: [['LATENT', 'LATENT', [205]]],
			nodes: [
				uiNode(1, 'KSampler', {
					inputs: [
						['model', 'MODEL', 201],
						['positive', 'CONDITIONING', 202],
						['negative', 'CONDITIONING', 203],
						['latent_image', 'LATENT', 204]
					],
					outputs: [['LATENT', 'LATENT', [205]]],
					values: [7, 'fixed', 25, 6, 'heun', 'karras', 1]
				})
			],
			links: [
				[201, -10, 0, 1, 0, 'MODEL'],
				[202, -10, 1, 1, 1, 'CONDITIONING'],
				[203, -10, 2, 1, 2, 'CONDITIONING'],
				[204, -10, 3, 1, 3, 'LATENT'],
				[205, 1, 0, -20, 0, 'LATENT']
			]
		});
		const sampling = subgraphDefinition({
			id: SUB_A,
			name: 'Sampling',
			inputs: [
				['model', 'MODEL', [101]],
				['clip', 'CLIP', [102, 103]],
				['latent', 'LATENT', [107]],
				['text', 'STRING', [104]]
			],
			outputs: [['LATENT', 'LATENT', [108]]],
			nodes: [
				uiNode(1, 'CLIPTextEncode', {
					inputs: [
						['clip', 'CLIP', 102],
						['text', 'STRING', 104, 'text']
					],
					outputs: [['CONDITIONING', 'CONDITIONING', [105]]],
					values: ['placeholder']
				}),
				uiNode(2, 'CLIPTextEncode', {
					inputs: [['clip', 'CLIP', 103]],
					outputs: [['CONDITIONING', 'CONDITIONING', [106]]],
					values: ['blurry']
				}),
				uiNode(3, SUB_B, {
					inputs: [
						['model', 'MODEL', 101],
						['positive', 'CONDITIONING', 105],
						['negative', 'CONDITIONING', 106],
						['latent_image', 'LATENT', 107]
					],
					outputs: [['LATENT', 'LATENT', [108]]]
				})
			],
			links: [
				[101, -10, 0, 3, 0, 'MODEL'],
				[102, -10, 1, 1, 0, 'CLIP'],
				[103, -10, 1, 2, 0, 'CLIP'],
				[104, -10, 3, 1, 1, 'STRING'],
				[105, 1, 0, 3, 1, 'CONDITIONING'],
				[106, 2, 0, 3, 2, 'CONDITIONING'],
				[107, -10, 2, 3, 3, 'LATENT'],
				[108, 3, 0, -20, 0, 'LATENT']
			]
		});
		const { nodes, links } = edit(
			txt2imgNodes(),
			[
				uiNode(10, SUB_A, {
					title: 'My sampling',
					inputs: [
						['model', 'MODEL', 1],
						['clip', 'CLIP', 3],
						['latent', 'LATENT', 2],
						// Unlinked: it takes the value of the widget promoted on the instance.
						['text', 'STRING', null, 'text']
					],
					outputs: [['LATENT', 'LATENT', [7]]],
					values: ['a cat in a hat']
				})
			],
			[
				[1, 4, 0, 10, 0, 'MODEL'],
				[3, 4, 1, 10, 1, 'CLIP'],
				[2, 5, 0, 10, 2, 'LATENT'],
				[7, 10, 0, 8, 0, 'LATENT']
			],
			[3, 6, 7]
		);
		return toSchemaV1(
			workflow04(
				nodes,
				links.filter((l) => ![4, 5, 6].includes(l[0])),
				{ definitions: { subgraphs: [sampling, samplerCore] } }
			)
		);
	}

	it('a subgraph inside a subgraph: path ids, inputs and outputs wired through, a promoted widget value', () => {
		const result = convert(nestedWorkflow());
		expect(sent(result.prompt)).toEqual({
			'4': TXT2IMG_PROMPT['4'],
			'5': TXT2IMG_PROMPT['5'],
			'10:1': {
				class_type: 'CLIPTextEncode',
				inputs: { text: 'a cat in a hat', clip: ['4', 1] },
				_meta: { title: 'CLIP Text Encode (Prompt)' }
			},
			'10:2': { class_type: 'CLIPTextEncode', inputs: { text: 'blurry', clip: ['4', 1] }, _meta: { title: 'CLIP Text Encode (Prompt)' } },
			'10:3:1': {
				class_type: 'KSampler',
				inputs: {
					seed: 7,
					steps: 25,
					cfg: 6,
					sampler_name: 'heun',
					scheduler: 'karras',
					denoise: 1,
					model: ['4', 0],
					positive: ['10:1', 0],
					negative: ['10:2', 0],
					latent_image: ['5', 0]
				},
				_meta: { title: 'KSampler' }
			},
			'8': { ...TXT2IMG_PROMPT['8'], inputs: { samples: ['10:3:1', 0], vae: ['4', 2] } },
			'9': TXT2IMG_PROMPT['9']
		});
		expect(result.warnings).toEqual([]);
		expectValid(result.prompt);
	});

	it('a group node: inner ids <group node id>:<index>, its widget values spread over the inner widgets', () => {
		const { nodes, links } = edit(
			txt2imgNodes(),
			[
				uiNode(20, 'workflow>Decode and save', {
					inputs: [
						['samples', 'LATENT', 7],
						['vae', 'VAE', 8]
					],
					values: ['grouped']
				})
			],
			[
				[7, 3, 0, 20, 0, 'LATENT'],
				[8, 4, 2, 20, 1, 'VAE']
			],
			[8, 9]
		);
		const groupNodes = {
			'Decode and save': {
				nodes: [
					{
						index: 0,
						type: 'VAEDecode',
						inputs: [
							{ name: 'samples', type: 'LATENT', link: null },
							{ name: 'vae', type: 'VAE', link: null }
						],
						outputs: [{ name: 'IMAGE', type: 'IMAGE', links: [] }],
						widgets_values: []
					},
					{
						index: 1,
						type: 'ImageInvert',
						inputs: [{ name: 'image', type: 'IMAGE', link: null }],
						outputs: [{ name: 'IMAGE', type: 'IMAGE', links: [] }],
						widgets_values: []
					},
					{ index: 2, type: 'SaveImage', inputs: [{ name: 'images', type: 'IMAGE', link: null }], outputs: [], widgets_values: ['ComfyUI'] }
				],
				links: [
					[0, 0, 1, 0, 8, 'IMAGE'],
					[1, 0, 2, 0, 10, 'IMAGE']
				],
				external: []
			}
		};
		const result = convert(
			workflow04(
				nodes,
				links.filter((l) => l[0] !== 9),
				{ extra: { groupNodes } }
			)
		);
		const { '8': _decode, '9': _save, ...rest } = TXT2IMG_PROMPT;
		expect(sent(result.prompt)).toEqual({
			...rest,
			'20:0': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] }, _meta: { title: 'VAE Decode' } },
			'20:1': { class_type: 'ImageInvert', inputs: { image: ['20:0', 0] }, _meta: { title: 'Invert Image' } },
			'20:2': { class_type: 'SaveImage', inputs: { filename_prefix: 'grouped', images: ['20:1', 0] }, _meta: { title: 'Save Image' } }
		});
		expectValid(result.prompt);
	});
});

describe('group nodes with widgets', () => {
	it('inputs are the inner inputs no inner link feeds; widget values go to the inner widgets in order, controls skipped', () => {
		const { nodes, links } = edit(
			txt2imgNodes(),
			[
				uiNode(21, 'workflow>Sampler', {
					inputs: [
						['model', 'MODEL', 1],
						['positive', 'CONDITIONING', 4],
						['negative', 'CONDITIONING', 6]
					],
					outputs: [['LATENT', 'LATENT', [7]]],
					values: [640, 480, 1, 99, 'fixed', 12, 5, 'ddim', 'karras', 0.5]
				})
			],
			[
				[1, 4, 0, 21, 0, 'MODEL'],
				[4, 6, 0, 21, 1, 'CONDITIONING'],
				[6, 7, 0, 21, 2, 'CONDITIONING'],
				[7, 21, 0, 8, 0, 'LATENT']
			],
			[3, 5]
		);
		const ksamplerInputs = [
			['model', 'MODEL'],
			['positive', 'CONDITIONING'],
			['negative', 'CONDITIONING'],
			['latent_image', 'LATENT']
		].map(([name, type]) => ({ name: name!, type: type!, link: null }));
		const groupNodes = {
			Sampler: {
				nodes: [
					{
						index: 0,
						type: 'EmptyLatentImage',
						inputs: [],
						outputs: [{ name: 'LATENT', type: 'LATENT', links: [] }],
						widgets_values: [512, 512, 1]
					},
					{
						index: 1,
						type: 'KSampler',
						inputs: ksamplerInputs,
						outputs: [{ name: 'LATENT', type: 'LATENT', links: [] }],
						widgets_values: [0, 'randomize', 20, 8, 'euler', 'normal', 1]
					}
				],
				links: [[0, 0, 1, 3, 2, 'LATENT']],
				external: []
			}
		};
		const result = convert(
			workflow04(
				nodes,
				links.filter((l) => l[0] !== 2),
				{ extra: { groupNodes } }
			)
		);
		const { '3': _sampler, '5': _latent, ...rest } = TXT2IMG_PROMPT;
		expect(sent(result.prompt)).toEqual({
			...rest,
			'21:0': {
				class_type: 'EmptyLatentImage',
				inputs: { width: 640, height: 480, batch_size: 1 },
				_meta: { title: 'Empty Latent Image' }
			},
			'21:1': {
				class_type: 'KSampler',
				inputs: {
					seed: 99,
					steps: 12,
					cfg: 5,
					sampler_name: 'ddim',
					scheduler: 'karras',
					denoise: 0.5,
					model: ['4', 0],
					positive: ['6', 0],
					negative: ['7', 0],
					latent_image: ['21:0', 0]
				},
				_meta: { title: 'KSampler' }
			},
			'8': { ...TXT2IMG_PROMPT['8'], inputs: { samples: ['21:1', 0], vae: ['4', 2] } }
		});
		expectValid(result.prompt);
	});
});

describe('legacy group node widgets, as the editor lays them out (GroupNodeConfig in groupNode.ts)', () => {
	const samplerInputs = [
		['model', 'MODEL'],
		['positive', 'CONDITIONING'],
		['negative', 'CONDITIONING'],
		['latent_image', 'LATENT']
	].map(([name, type]) => ({ name: name!, type: type!, link: null }));
	const latent = [{ name: 'LATENT', type: 'LATENT', links: [] }];
	/** txt2img with its KSampler (3) replaced by group node 21, fed the model, both prompts and the latent. */
	function withGroup(values: Json[], groupNodes: JsonObject, groupInputs: Array<[string, string, number]>, extraLinks: LinkSpec[] = []) {
		const { nodes, links } = edit(
			txt2imgNodes(),
			[uiNode(21, 'workflow>Refine', { inputs: groupInputs, outputs: [['LATENT', 'LATENT', [7]]], values })],
			[
				[1, 4, 0, 21, 0, 'MODEL'],
				[4, 6, 0, 21, 1, 'CONDITIONING'],
				[6, 7, 0, 21, 2, 'CONDITIONING'],
				[2, 5, 0, 21, 3, 'LATENT'],
				[7, 21, 0, 8, 0, 'LATENT'],
				...extraLinks
			],
			[3]
		);
		return convert(workflow04(nodes, links, { extra: { groupNodes } }));
	}
	const fourInputs: Array<[string, string, number]> = [
		['model', 'MODEL', 1],
		['positive', 'CONDITIONING', 4],
		['negative', 'CONDITIONING', 6],
		['latent_image', 'LATENT', 2]
	];
	const advanced = (inputs: Record<string, Json>) => ({
		class_type: 'KSamplerAdvanced',
		inputs: { ...inputs, model: ['4', 0], positive: ['6', 0], negative: ['7', 0], latent_image: ['5', 0] },
		_meta: { title: 'KSampler (Advanced)' }
	});

	it('a PrimitiveNode inside the group is a group widget with its control: the noise seed and CFG after it stay in place', () => {
		// The primitive feeds the sampler's cfg (a widget converted to an input), so the group shows the
		// primitive's value and control first, then the sampler's widgets without cfg.
		const groupNodes = {
			Refine: {
				nodes: [
					{
						index: 0,
						type: 'PrimitiveNode',
						inputs: [],
						outputs: [{ name: 'FLOAT', type: 'FLOAT', links: [], widget: { name: 'cfg' } }],
						widgets_values: [8, 'fixed']
					},
					{
						index: 1,
						type: 'KSamplerAdvanced',
						inputs: [...samplerInputs, { name: 'cfg', type: 'FLOAT', link: null, widget: { name: 'cfg' } }],
						outputs: latent,
						widgets_values: ['enable', 0, 'randomize', 20, 8, 'euler', 'normal', 0, 10000, 'disable']
					}
				],
				links: [[0, 0, 1, 4, 9, 'FLOAT']],
				external: []
			}
		};
		const values = [6.5, 'fixed', 'enable', 1234, 'randomize', 25, 'dpmpp_2m', 'karras', 0, 10000, 'disable'];
		const result = withGroup(values, groupNodes, fourInputs);
		expect((sent(result.prompt) as Record<string, unknown>)['21:1']).toEqual(
			advanced({
				add_noise: 'enable',
				noise_seed: 1234,
				steps: 25,
				cfg: 6.5,
				sampler_name: 'dpmpp_2m',
				scheduler: 'karras',
				start_at_step: 0,
				end_at_step: 10000,
				return_with_leftover_noise: 'disable'
			})
		);
		expectValid(result.prompt);
	});

	it('an inner seed always brings a control, by its name, even where its definition turns the control off', () => {
		// NoiseSeeds: noise_seed (no option), seed (control_after_generate: false), sampler (a list with control), strength.
		const groupNodes = {
			Refine: {
				nodes: [
					{
						index: 0,
						type: 'NoiseSeeds',
						inputs: [],
						outputs: [{ name: 'INT', type: 'INT', links: [] }],
						widgets_values: [0, 'fixed', 0, 'euler', 'fixed', '', 1]
					},
					{
						index: 1,
						type: 'KSamplerAdvanced',
						inputs: samplerInputs,
						outputs: latent,
						widgets_values: ['enable', 0, 'randomize', 20, 8, 'euler', 'normal', 0, 10000, 'disable']
					}
				],
				links: [],
				external: []
			}
		};
		const values = [
			7,
			'fixed',
			9,
			'fixed',
			'heun',
			'fixed',
			'',
			2.5,
			'disable',
			4321,
			'increment',
			30,
			4.5,
			'euler',
			'simple',
			2,
			28,
			'enable'
		];
		const result = withGroup(values, groupNodes, fourInputs);
		const prompt = sent(result.prompt) as Record<string, { inputs: unknown }>;
		expect(prompt['21:0']?.inputs).toEqual({ noise_seed: 7, seed: 9, sampler: 'heun', strength: 2.5 });
		expect(prompt['21:1']).toEqual(
			advanced({
				add_noise: 'disable',
				noise_seed: 4321,
				steps: 30,
				cfg: 4.5,
				sampler_name: 'euler',
				scheduler: 'simple',
				start_at_step: 2,
				end_at_step: 28,
				return_with_leftover_noise: 'enable'
			})
		);
	});

	it('an instance saved without control values (a newer editor) is read value by value', () => {
		const groupNodes = {
			Refine: {
				nodes: [
					{
						index: 0,
						type: 'KSamplerAdvanced',
						inputs: samplerInputs,
						outputs: latent,
						widgets_values: ['enable', 0, 20, 8, 'euler', 'normal', 0, 10000, 'disable']
					}
				],
				links: [],
				external: []
			}
		};
		const values = ['enable', 555, 12, 3.5, 'heun', 'karras', 0, 9, 'disable'];
		const result = withGroup(values, groupNodes, fourInputs);
		expect((sent(result.prompt) as Record<string, unknown>)['21:0']).toEqual(
			advanced({
				add_noise: 'enable',
				noise_seed: 555,
				steps: 12,
				cfg: 3.5,
				sampler_name: 'heun',
				scheduler: 'karras',
				start_at_step: 0,
				end_at_step: 9,
				return_with_leftover_noise: 'disable'
			})
		);
		expectValid(result.prompt);
	});
});

describe('what the server lacks', () => {
	it('names every missing node type once, with its nodes and the node pack the file names', () => {
		const { nodes, links } = edit(txt2imgNodes(), [
			uiNode(60, 'FaceDetailer', { title: 'Fix faces', properties: { cnr_id: 'comfyui-impact-pack', ver: '8.8.1' } }),
			uiNode(61, 'SetNode', { properties: { aux_id: 'kijai/ComfyUI-KJNodes' } }),
			uiNode(62, 'FaceDetailer'),
			uiNode(63, 'UltimateSDUpscale', { mode: 2 })
		]);
		const result = convertUiWorkflow(workflow04(nodes, links), definitions);
		expect(result.ok).toBe(false);
		expect(result.missing.nodeTypes).toEqual([
			{
				type: 'FaceDetailer',
				pack: 'comfyui-impact-pack',
				version: '8.8.1',
				nodes: [
					{ id: '60', title: 'Fix faces' },
					{ id: '62', title: 'FaceDetailer' }
				]
			},
			{ type: 'SetNode', pack: 'kijai/ComfyUI-KJNodes', nodes: [{ id: '61', title: 'SetNode' }] }
		]);
		if (result.ok) return;
		expect(result.errors).toHaveLength(1);
		expect(result.errors[0]!.message).toContain(
			'- FaceDetailer, from the node pack "comfyui-impact-pack": install it on this server, or pick another server; used by #60 "Fix faces", #62 "FaceDetailer"'
		);
		expect(result.errors[0]!.message).not.toContain('UltimateSDUpscale'); // muted: never sent
		// What this server knows is kept: the workflow can be saved and run once the server has the rest.
		expect(Object.keys(result.partial ?? {}).sort()).toEqual(['3', '4', '5', '6', '60', '61', '62', '7', '8', '9']);
		expect(result.partial?.['60']).toMatchObject({ class_type: 'FaceDetailer', _meta: { title: 'Fix faces' } });
	});

	it('names a core node the server lacks as ComfyUI’s own, with the version that has it, not as a node pack', () => {
		const { nodes, links } = edit(txt2imgNodes(), [uiNode(70, 'NewerCoreNode', { properties: { cnr_id: 'comfy-core', ver: '0.3.66' } })]);
		const result = convertUiWorkflow(workflow04(nodes, links), definitions);
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.missing.nodeTypes).toEqual([
			{ type: 'NewerCoreNode', pack: 'comfy-core', version: '0.3.66', nodes: [{ id: '70', title: 'NewerCoreNode' }] }
		]);
		expect(result.errors[0]!.message).toContain(
			'- NewerCoreNode, a core node of ComfyUI (ComfyUI 0.3.66 has it): update ComfyUI on this server'
		);
		expect(result.errors[0]!.message).not.toMatch(/node pack/);
	});

	it('lists model files missing from the combo lists, with the download URL the file carries', () => {
		const { nodes, links } = edit(txt2imgNodes(), [
			uiNode(4, 'CheckpointLoaderSimple', {
				outputs: [
					['MODEL', 'MODEL', [1]],
					['CLIP', 'CLIP', [3, 5]],
					['VAE', 'VAE', [8]]
				],
				values: ['my-own-merge_v3.safetensors']
			})
		]);
		const models = [
			{ name: 'my-own-merge_v3.safetensors', url: 'https://huggingface.co/example/my-own-merge_v3.safetensors', directory: 'checkpoints' }
		];
		const result = convert(workflow04(nodes, links, { models }));
		expect(result.missing.models).toEqual([
			{
				name: 'my-own-merge_v3.safetensors',
				nodeId: '4',
				title: 'Load Checkpoint',
				input: 'ckpt_name',
				url: models[0]!.url,
				directory: 'checkpoints'
			}
		]);
		expect(result.prompt['4']!.inputs['ckpt_name']).toBe('my-own-merge_v3.safetensors');
	});
});
