/**
 * A workflow of our own in the editor (UI) format with a subgraph, as today's templates are built: a
 * text-to-image subgraph whose prompt and size are promoted to the instance (`proxyWidgets`), its
 * image saved outside it. Written for this project; converted with the app's converter, then run.
 */
import type { Json, JsonObject } from '../../src/lib/core/protocol/json';

const SUBGRAPH = 'b7d5e9a0-0000-4000-8000-000000000001';

const node = (
	id: number,
	type: string,
	inputs: Array<[string, string, number | null]>,
	outputs: Array<[string, string, number[]]>,
	values: Json[]
) => ({
	id,
	type,
	mode: 0,
	inputs: inputs.map(([name, t, link]) => ({ name, type: t, link })),
	outputs: outputs.map(([name, t, links]) => ({ name, type: t, links })),
	properties: { cnr_id: 'comfy-core', ver: '0.3.64' },
	widgets_values: values
});

const link = (id: number, from: number, fromSlot: number, to: number, toSlot: number, type: string) => ({
	id,
	origin_id: from,
	origin_slot: fromSlot,
	target_id: to,
	target_slot: toSlot,
	type
});

export const SUBGRAPH_WORKFLOW: JsonObject = {
	last_node_id: 3,
	last_link_id: 1,
	nodes: [
		{
			// The prompt is a subgraph input shown on the instance (["-1", "text"]): its value is the instance's.
			// Its one input slot is the seed, the subgraph's second input: slots are matched by name, not position.
			...node(1, SUBGRAPH, [['seed', 'INT', 2]], [['IMAGE', 'IMAGE', [1]]], ['a kite at noon', null]),
			properties: {
				proxyWidgets: [
					['-1', 'text'],
					['14', 'width']
				]
			}
		},
		node(2, 'SaveImage', [['images', 'IMAGE', 1]], [], ['subgraph']),
		node(4, 'PrimitiveInt', [], [['INT', 'INT', [2]]], [77, 'fixed']),
		{ id: 3, type: 'MarkdownNote', mode: 0, inputs: [], outputs: [], properties: {}, widgets_values: ['Our own note.'] }
	],
	links: [
		[1, 1, 0, 2, 0, 'IMAGE'],
		[2, 4, 0, 1, 0, 'INT']
	],
	definitions: {
		subgraphs: [
			{
				id: SUBGRAPH,
				name: 'Text to image',
				inputNode: { id: -10, bounding: [0, 0, 10, 10] },
				outputNode: { id: -20, bounding: [0, 0, 10, 10] },
				inputs: [
					{ id: 'i1', name: 'text', type: 'STRING', linkIds: [20] },
					{ id: 'i2', name: 'seed', type: 'INT', linkIds: [21] }
				],
				outputs: [{ id: 'o1', name: 'IMAGE', type: 'IMAGE', linkIds: [16] }],
				widgets: [],
				nodes: [
					node(
						10,
						'CheckpointLoaderSimple',
						[],
						[
							['MODEL', 'MODEL', [10]],
							['CLIP', 'CLIP', [11, 12]],
							['VAE', 'VAE', [13]]
						],
						['v1-5-pruned-emaonly-fp16.safetensors']
					),
					{
						...node(12, 'CLIPTextEncode', [['clip', 'CLIP', 11]], [['CONDITIONING', 'CONDITIONING', [14]]], ['a kite over dunes']),
						inputs: [
							{ name: 'clip', type: 'CLIP', link: 11 },
							{ name: 'text', type: 'STRING', link: 20, widget: { name: 'text' } }
						]
					},
					node(13, 'CLIPTextEncode', [['clip', 'CLIP', 12]], [['CONDITIONING', 'CONDITIONING', [15]]], ['']),
					node(14, 'EmptyLatentImage', [], [['LATENT', 'LATENT', [17]]], [80, 48, 1]),
					node(
						15,
						'KSampler',
						[
							['model', 'MODEL', 10],
							['positive', 'CONDITIONING', 14],
							['negative', 'CONDITIONING', 15],
							['latent_image', 'LATENT', 17],
							['seed', 'INT', 21]
						],
						[['LATENT', 'LATENT', [18]]],
						[5, 'randomize', 3, 7, 'euler', 'normal', 1]
					),
					node(
						16,
						'VAEDecode',
						[
							['samples', 'LATENT', 18],
							['vae', 'VAE', 13]
						],
						[['IMAGE', 'IMAGE', [16]]],
						[]
					)
				],
				links: [
					link(10, 10, 0, 15, 0, 'MODEL'),
					link(11, 10, 1, 12, 0, 'CLIP'),
					link(12, 10, 1, 13, 0, 'CLIP'),
					link(13, 10, 2, 16, 1, 'VAE'),
					link(14, 12, 0, 15, 1, 'CONDITIONING'),
					link(15, 13, 0, 15, 2, 'CONDITIONING'),
					link(17, 14, 0, 15, 3, 'LATENT'),
					link(18, 15, 0, 16, 0, 'LATENT'),
					link(16, 16, 0, -20, 0, 'IMAGE'),
					link(20, -10, 0, 12, 1, 'STRING'),
					link(21, -10, 1, 15, 4, 'INT')
				]
			}
		]
	},
	version: 0.4
};
