/** Small builders for UI-format workflows in tests, in the shapes the editor writes. */
import type { Json, JsonObject } from '../../../core/protocol/json';

export type InSpec = [name: string, type: string, link: number | null, widget?: string];
export type OutSpec = [name: string, type: string, links: number[]];
export type LinkSpec = [id: number, origin: number, originSlot: number, target: number, targetSlot: number, type: string];

export interface NodeOptions {
	inputs?: InSpec[];
	outputs?: OutSpec[];
	values?: Json[] | JsonObject;
	mode?: number;
	title?: string;
	properties?: JsonObject;
}

export function uiNode(id: number, type: string, o: NodeOptions = {}): JsonObject {
	return {
		id,
		type,
		pos: [0, 0],
		size: [200, 100],
		flags: {},
		order: id,
		mode: o.mode ?? 0,
		...(o.title !== undefined ? { title: o.title } : {}),
		inputs: (o.inputs ?? []).map(([name, type, link, widget]) => ({ name, type, link, ...(widget ? { widget: { name: widget } } : {}) })),
		outputs: (o.outputs ?? []).map(([name, type, links]) => ({ name, type, links })),
		properties: { 'Node name for S&R': type, ...(o.properties ?? {}) },
		...(o.values !== undefined ? { widgets_values: o.values } : {})
	};
}

/** LiteGraph 0.4: links as arrays. */
export function workflow04(nodes: JsonObject[], links: LinkSpec[], more: JsonObject = {}): JsonObject {
	return { last_node_id: 100, last_link_id: 100, nodes, links, groups: [], config: {}, extra: {}, version: 0.4, ...more };
}

export function linkObject([id, origin_id, origin_slot, target_id, target_slot, type]: LinkSpec): JsonObject {
	return { id, origin_id, origin_slot, target_id, target_slot, type };
}

/** Schema version 1: the same graph with links as objects. */
export function toSchemaV1(workflow: JsonObject): JsonObject {
	const links = (workflow['links'] as LinkSpec[]).map(linkObject);
	return { ...workflow, version: 1, state: { lastNodeId: 100, lastLinkId: 100, lastGroupId: 0, lastRerouteId: 0 }, links };
}

export interface SubgraphSpec {
	id: string;
	name: string;
	inputs: Array<[name: string, type: string, linkIds: number[]]>;
	outputs: Array<[name: string, type: string, linkIds: number[]]>;
	nodes: JsonObject[];
	links: LinkSpec[];
}

export function subgraphDefinition(s: SubgraphSpec): JsonObject {
	return {
		id: s.id,
		version: 1,
		revision: 0,
		name: s.name,
		inputNode: { id: -10, bounding: [0, 0, 100, 100] },
		outputNode: { id: -20, bounding: [0, 0, 100, 100] },
		inputs: s.inputs.map(([name, type, linkIds], i) => ({ id: `in-${i}`, name, type, linkIds })),
		outputs: s.outputs.map(([name, type, linkIds], i) => ({ id: `out-${i}`, name, type, linkIds })),
		widgets: [],
		nodes: s.nodes,
		links: s.links.map(linkObject)
	};
}

/** The default text-to-image graph, as ComfyUI's editor saves it (ids as in its default workflow). */
export function txt2imgNodes(): { nodes: JsonObject[]; links: LinkSpec[] } {
	const nodes = [
		uiNode(4, 'CheckpointLoaderSimple', {
			outputs: [
				['MODEL', 'MODEL', [1]],
				['CLIP', 'CLIP', [3, 5]],
				['VAE', 'VAE', [8]]
			],
			values: ['v1-5-pruned-emaonly.safetensors']
		}),
		uiNode(6, 'CLIPTextEncode', {
			title: 'Positive',
			inputs: [['clip', 'CLIP', 3]],
			outputs: [['CONDITIONING', 'CONDITIONING', [4]]],
			values: ['a cat']
		}),
		uiNode(7, 'CLIPTextEncode', { inputs: [['clip', 'CLIP', 5]], outputs: [['CONDITIONING', 'CONDITIONING', [6]]], values: ['blurry'] }),
		uiNode(5, 'EmptyLatentImage', { outputs: [['LATENT', 'LATENT', [2]]], values: [512, 768, 1] }),
		uiNode(3, 'KSampler', {
			inputs: [
				['model', 'MODEL', 1],
				['positive', 'CONDITIONING', 4],
				['negative', 'CONDITIONING', 6],
				['latent_image', 'LATENT', 2]
			],
			outputs: [['LATENT', 'LATENT', [7]]],
			values: [42, 'randomize', 20, 7.5, 'euler', 'normal', 1]
		}),
		uiNode(8, 'VAEDecode', {
			inputs: [
				['samples', 'LATENT', 7],
				['vae', 'VAE', 8]
			],
			outputs: [['IMAGE', 'IMAGE', [9]]]
		}),
		uiNode(9, 'SaveImage', { inputs: [['images', 'IMAGE', 9]], values: ['cat'] })
	];
	const links: LinkSpec[] = [
		[1, 4, 0, 3, 0, 'MODEL'],
		[2, 5, 0, 3, 3, 'LATENT'],
		[3, 4, 1, 6, 0, 'CLIP'],
		[4, 6, 0, 3, 1, 'CONDITIONING'],
		[5, 4, 1, 7, 0, 'CLIP'],
		[6, 7, 0, 3, 2, 'CONDITIONING'],
		[7, 3, 0, 8, 0, 'LATENT'],
		[8, 4, 2, 8, 1, 'VAE'],
		[9, 8, 0, 9, 0, 'IMAGE']
	];
	return { nodes, links };
}

/** Replaces (or adds) nodes by id and links by id. */
export function edit(base: { nodes: JsonObject[]; links: LinkSpec[] }, nodes: JsonObject[], links: LinkSpec[] = [], drop: number[] = []) {
	const nodeIds = new Set(nodes.map((n) => n['id']));
	const linkIds = new Set(links.map((l) => l[0]));
	return {
		nodes: [...base.nodes.filter((n) => !nodeIds.has(n['id']) && !drop.includes(n['id'] as number)), ...nodes],
		links: [...base.links.filter((l) => !linkIds.has(l[0])), ...links]
	};
}
