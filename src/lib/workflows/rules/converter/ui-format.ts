/**
 * The editor (UI) format of a ComfyUI workflow, parsed once from untrusted JSON into typed values.
 * Both serialisations are read: LiteGraph 0.4 (links as `[id, origin, slot, target, slot, type]`)
 * and schema version 1 (links as objects), with `definitions.subgraphs` (nested definitions too)
 * and the deprecated `extra.groupNodes`. Everything keyed by a name from the file is a `Map`.
 */
import { isObject, type Json, type JsonObject } from '../../../core/protocol/json';

/** LiteGraph node modes: 0 always, 2 never (muted), 4 bypass. */
export const MODE_MUTED = 2;
export const MODE_BYPASS = 4;
/** The ids of a subgraph's input and output nodes in its links. */
export const SUBGRAPH_INPUT_ID = '-10';
export const SUBGRAPH_OUTPUT_ID = '-20';

export interface UiLink {
	originId: string;
	originSlot: number;
	targetId: string;
	targetSlot: number;
	type: string;
}

export interface UiInput {
	name: string;
	type: string;
	link: string | null;
	/** Set when the input stands for a widget (a widget converted to an input, or a promoted one). */
	widgetName: string | undefined;
}

export interface UiOutput {
	name: string;
	type: string;
	links: string[];
}

export interface ModelRef {
	name: string;
	url?: string;
	directory?: string;
}

export interface UiNode {
	id: string;
	type: string;
	mode: number;
	title: string | undefined;
	inputs: UiInput[];
	outputs: UiOutput[];
	/** By position, or keyed by widget name as some nodes write them; null when absent. */
	widgetsValues: Json[] | Map<string, Json> | null;
	pack: string | undefined;
	/** `properties.ver`: the version of the pack (of ComfyUI itself for `comfy-core`) the file was saved with. */
	packVersion: string | undefined;
	searchName: string | undefined;
	models: ModelRef[];
	/** A subgraph instance's `properties.proxyWidgets`: `[inner node id or "-1" for a subgraph input, widget name]`. */
	proxyWidgets: Array<[string, string]> | undefined;
}

export interface UiGraph {
	nodes: UiNode[];
	links: Map<string, UiLink>;
}

export interface UiSubgraphSlot {
	name: string;
	type: string;
	linkIds: string[];
}

export interface UiSubgraph extends UiGraph {
	id: string;
	name: string;
	inputs: UiSubgraphSlot[];
	outputs: UiSubgraphSlot[];
}

/** `extra.groupNodes[name]`: inner nodes by index, links between them by index. */
export interface UiGroupNodeDef {
	nodes: UiNode[];
	/** `[origin index, origin slot, target index, target slot]`. */
	links: Array<[number, number, number, number]>;
	/** `[node index, output slot]` of outputs linked outside the group. */
	external: Array<[number, number]>;
}

export interface UiWorkflow {
	root: UiGraph;
	subgraphs: Map<string, UiSubgraph>;
	groupNodes: Map<string, UiGroupNodeDef>;
	models: ModelRef[];
}

export type UiParseResult = { ok: true; workflow: UiWorkflow } | { ok: false; message: string };

class ShapeError extends Error {}

function fail(message: string): never {
	throw new ShapeError(message);
}

function idOf(value: Json | undefined): string | null {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string' && value !== '') return value;
	return null;
}

function slotOf(value: Json | undefined): number {
	return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : -1;
}

/** LiteGraph types are strings, `*`, or numbers for events; anything else reads as `*`. */
function typeOf(value: Json | undefined): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return String(value);
	return '*';
}

function stringOf(value: Json | undefined): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

function parseLink(raw: Json, where: string): [string, UiLink] | null {
	if (Array.isArray(raw)) {
		// LiteGraph 0.4: [id, origin_id, origin_slot, target_id, target_slot, type]
		const id = idOf(raw[0]);
		const originId = idOf(raw[1]);
		const targetId = idOf(raw[3]);
		if (id === null || originId === null || targetId === null) fail(`${where}: a link is not [id, origin, slot, target, slot, type].`);
		return [id, { originId, originSlot: slotOf(raw[2]), targetId, targetSlot: slotOf(raw[4]), type: typeOf(raw[5]) }];
	}
	if (isObject(raw)) {
		const id = idOf(raw['id']);
		const originId = idOf(raw['origin_id']);
		const targetId = idOf(raw['target_id']);
		if (id === null || originId === null || targetId === null) fail(`${where}: a link has no id, origin_id or target_id.`);
		return [
			id,
			{ originId, originSlot: slotOf(raw['origin_slot']), targetId, targetSlot: slotOf(raw['target_slot']), type: typeOf(raw['type']) }
		];
	}
	if (raw === null) return null; // LiteGraph leaves null holes in some old files
	return fail(`${where}: a link is neither an array nor an object.`);
}

function parseLinks(raw: Json | undefined, where: string): Map<string, UiLink> {
	const links = new Map<string, UiLink>();
	if (raw === undefined || raw === null) return links;
	if (!Array.isArray(raw)) fail(`${where}: "links" is not a list.`);
	for (const entry of raw) {
		const parsed = parseLink(entry, where);
		if (parsed) links.set(parsed[0], parsed[1]);
	}
	return links;
}

const NO_MODELS: ModelRef[] = [];

function parseProxyWidgets(raw: Json | undefined): Array<[string, string]> | undefined {
	if (!Array.isArray(raw)) return undefined;
	return raw.map((entry): [string, string] =>
		Array.isArray(entry) && entry.length >= 2 ? [String(entry[0]), String(entry[1])] : ['', '']
	);
}

function parseModels(raw: Json | undefined): ModelRef[] {
	if (!Array.isArray(raw) || raw.length === 0) return NO_MODELS;
	const models: ModelRef[] = [];
	for (const m of raw) {
		if (!isObject(m) || typeof m['name'] !== 'string') continue;
		const url = stringOf(m['url']);
		const directory = stringOf(m['directory']);
		models.push({ name: m['name'], ...(url ? { url } : {}), ...(directory ? { directory } : {}) });
	}
	return models;
}

function parseWidgetsValues(raw: Json | undefined): UiNode['widgetsValues'] {
	if (Array.isArray(raw)) return raw;
	if (isObject(raw)) return new Map(Object.entries(raw));
	return null;
}

export function parseNode(raw: Json, where: string): UiNode {
	if (!isObject(raw)) fail(`${where}: a node is not an object.`);
	const id = idOf(raw['id']);
	if (id === null) fail(`${where}: a node has no id.`);
	const type = raw['type'];
	if (typeof type !== 'string' || type === '') fail(`${where}: node ${id} has no type.`);
	const inputs: UiInput[] = [];
	if (Array.isArray(raw['inputs'])) {
		for (const input of raw['inputs']) {
			if (!isObject(input)) fail(`${where}: node ${id} has an input that is not an object.`);
			const widget = isObject(input['widget']) ? stringOf(input['widget']['name']) : undefined;
			// Every field always present: one object shape keeps the converter's loops fast.
			inputs.push({ name: stringOf(input['name']) ?? '', type: typeOf(input['type']), link: idOf(input['link']), widgetName: widget });
		}
	}
	const outputs: UiOutput[] = [];
	if (Array.isArray(raw['outputs'])) {
		for (const output of raw['outputs']) {
			if (!isObject(output)) fail(`${where}: node ${id} has an output that is not an object.`);
			const links = Array.isArray(output['links']) ? output['links'].map(idOf).filter((l): l is string => l !== null) : [];
			outputs.push({ name: stringOf(output['name']) ?? '', type: typeOf(output['type']), links });
		}
	}
	const properties = isObject(raw['properties']) ? raw['properties'] : {};
	const pack = stringOf(properties['cnr_id']) ?? stringOf(properties['aux_id']);
	const searchName = stringOf(properties['Node name for S&R']);
	return {
		id,
		type,
		mode: typeof raw['mode'] === 'number' ? raw['mode'] : 0,
		title: stringOf(raw['title']),
		inputs,
		outputs,
		widgetsValues: parseWidgetsValues(raw['widgets_values']),
		pack: pack || undefined,
		packVersion: stringOf(properties['ver']) || undefined,
		searchName: searchName || undefined,
		models: parseModels(properties['models']),
		proxyWidgets: parseProxyWidgets(properties['proxyWidgets'])
	};
}

function parseNodes(raw: Json | undefined, where: string): UiNode[] {
	if (!Array.isArray(raw)) fail(`${where}: "nodes" is not a list.`);
	return raw.map((n) => parseNode(n, where));
}

function parseSlots(raw: Json | undefined): UiSubgraphSlot[] {
	if (!Array.isArray(raw)) return [];
	return raw.map((slot) => {
		const s: JsonObject = isObject(slot) ? slot : {};
		const linkIds = Array.isArray(s['linkIds']) ? s['linkIds'].map(idOf).filter((l): l is string => l !== null) : [];
		return { name: stringOf(s['name']) ?? '', type: typeOf(s['type']), linkIds };
	});
}

/** Subgraph definitions may carry their own `definitions.subgraphs`; all share one id space. */
function collectSubgraphs(definitions: Json | undefined, into: Map<string, UiSubgraph>, depth: number): void {
	if (!isObject(definitions) || !Array.isArray(definitions['subgraphs'])) return;
	if (depth > 64) fail('Subgraph definitions nest more than 64 levels deep.');
	for (const raw of definitions['subgraphs']) {
		if (!isObject(raw)) fail('A subgraph definition is not an object.');
		const id = idOf(raw['id']);
		if (id === null) fail('A subgraph definition has no id.');
		const where = `Subgraph ${stringOf(raw['name']) ?? id}`;
		if (!into.has(id)) {
			into.set(id, {
				id,
				name: stringOf(raw['name']) ?? id,
				nodes: parseNodes(raw['nodes'] ?? [], where),
				links: parseLinks(raw['links'], where),
				inputs: parseSlots(raw['inputs']),
				outputs: parseSlots(raw['outputs'])
			});
		}
		collectSubgraphs(raw['definitions'], into, depth + 1);
	}
}

function parseGroupNodes(extra: Json | undefined): Map<string, UiGroupNodeDef> {
	const groups = new Map<string, UiGroupNodeDef>();
	if (!isObject(extra) || !isObject(extra['groupNodes'])) return groups;
	for (const [name, raw] of Object.entries(extra['groupNodes'])) {
		if (!isObject(raw)) fail(`Group node "${name}" is not an object.`);
		const where = `Group node "${name}"`;
		const nodes = (Array.isArray(raw['nodes']) ? raw['nodes'] : []).map((n, index) =>
			// Inner nodes of a group node are known by their index; their own ids may be absent.
			parseNode(isObject(n) ? { ...n, id: index } : n, where)
		);
		const links: UiGroupNodeDef['links'] = [];
		for (const l of Array.isArray(raw['links']) ? raw['links'] : []) {
			if (!Array.isArray(l)) continue;
			links.push([slotOf(l[0]), slotOf(l[1]), slotOf(l[2]), slotOf(l[3])]);
		}
		const external: UiGroupNodeDef['external'] = [];
		for (const e of Array.isArray(raw['external']) ? raw['external'] : []) {
			if (Array.isArray(e)) external.push([slotOf(e[0]), slotOf(e[1])]);
		}
		groups.set(name, { nodes, links, external });
	}
	return groups;
}

/** Reads a UI-format workflow, or says what in its shape is wrong. */
export function parseUiWorkflow(value: Json): UiParseResult {
	try {
		if (!isObject(value)) fail('A workflow must be a JSON object.');
		const root: UiGraph = { nodes: parseNodes(value['nodes'], 'The workflow'), links: parseLinks(value['links'], 'The workflow') };
		const subgraphs = new Map<string, UiSubgraph>();
		collectSubgraphs(value['definitions'], subgraphs, 0);
		const extra = isObject(value['extra']) ? value['extra'] : {};
		return { ok: true, workflow: { root, subgraphs, groupNodes: parseGroupNodes(extra), models: parseModels(value['models']) } };
	} catch (error) {
		if (error instanceof ShapeError) return { ok: false, message: error.message };
		throw error;
	}
}

/** The editor format has a `nodes` list; the API format is an object of nodes with `class_type`. */
export function workflowFormatOf(value: Json): 'ui' | 'api' | 'unknown' {
	if (!isObject(value)) return 'unknown';
	if (Array.isArray(value['nodes'])) return 'ui';
	const prompt = isObject(value['prompt']) && !('class_type' in value) ? value['prompt'] : value;
	const nodes = Object.values(prompt);
	if (nodes.length > 0 && nodes.every((n) => isObject(n) && typeof n['class_type'] === 'string')) return 'api';
	return 'unknown';
}
