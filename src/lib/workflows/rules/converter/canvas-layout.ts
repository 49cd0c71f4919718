/**
 * What the editor (UI) format says about how a person sees the workflow, for the form: node
 * titles, positions and collapsed state, the author's groups (title, colour, bounds), the inputs a
 * PrimitiveNode feeds (one field for all), and the editor's app mode (`extra.linearData`:
 * `inputs` as `[nodeId, widgetName]` pairs and `outputs` as node ids, as ComfyUI_frontend's
 * appIOStore keeps them). Only the top-level graph: nodes inside subgraphs keep their prompt titles.
 */
import { isObject, type Json, type JsonObject } from '../../../core/protocol/json';

export interface CanvasNode {
	title?: string;
	x: number;
	y: number;
	collapsed: boolean;
}

export interface CanvasGroup {
	title: string;
	color?: string;
	x: number;
	y: number;
	width: number;
	height: number;
}

export interface CanvasLayout {
	nodes: Map<string, CanvasNode>;
	groups: CanvasGroup[];
	/** Field ids (`nodeId.input`) the author exposed in app mode, in their order; null when the file has none. */
	appInputs: string[] | null;
	/** A PrimitiveNode's targets: the first field id stands for the others, which take its value. */
	primitives: Array<{ title: string; fields: string[] }>;
	/** Top-level subgraph instances by node id: the subgraph's name and how many instances the workflow has. */
	subgraphInstances: Map<string, { name: string; uses: number }>;
}

const num = (v: Json | undefined, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

function point(v: Json | undefined): [number, number] {
	if (Array.isArray(v)) return [num(v[0]), num(v[1])];
	if (isObject(v)) return [num(v['0']), num(v['1'])];
	return [0, 0];
}

export function canvasLayout(ui: JsonObject): CanvasLayout {
	const nodes = new Map<string, CanvasNode>();
	const raw = Array.isArray(ui['nodes']) ? ui['nodes'].filter(isObject) : [];
	for (const node of raw) {
		const [x, y] = point(node['pos']);
		const title = typeof node['title'] === 'string' && node['title'].trim() ? node['title'] : undefined;
		const flags = isObject(node['flags']) ? node['flags'] : {};
		nodes.set(String(node['id']), { ...(title ? { title } : {}), x, y, collapsed: flags['collapsed'] === true });
	}
	const groups: CanvasGroup[] = [];
	for (const g of Array.isArray(ui['groups']) ? ui['groups'].filter(isObject) : []) {
		const b = Array.isArray(g['bounding']) ? g['bounding'] : [];
		groups.push({
			title: typeof g['title'] === 'string' ? g['title'] : 'Group',
			...(typeof g['color'] === 'string' ? { color: g['color'] } : {}),
			x: num(b[0]),
			y: num(b[1]),
			width: num(b[2]),
			height: num(b[3])
		});
	}
	const extra = isObject(ui['extra']) ? ui['extra'] : {};
	const linear = isObject(extra['linearData']) ? extra['linearData'] : undefined;
	const inputs = linear && Array.isArray(linear['inputs']) ? linear['inputs'] : undefined;
	const appInputs = inputs
		? inputs.flatMap((pair) => (Array.isArray(pair) && typeof pair[1] === 'string' ? [`${String(pair[0])}.${pair[1]}`] : []))
		: null;
	return {
		nodes,
		groups,
		appInputs: appInputs && appInputs.length > 0 ? appInputs : null,
		primitives: primitivesOf(raw, ui['links']),
		subgraphInstances: subgraphInstancesOf(raw, ui['definitions'])
	};
}

function subgraphInstancesOf(nodes: JsonObject[], definitions: Json | undefined): CanvasLayout['subgraphInstances'] {
	const names = new Map<string, string>();
	const defs = isObject(definitions) && Array.isArray(definitions['subgraphs']) ? definitions['subgraphs'] : [];
	for (const d of defs) if (isObject(d)) names.set(String(d['id']), typeof d['name'] === 'string' ? d['name'] : 'Subgraph');
	const instances = nodes.filter((n) => names.has(String(n['type'])));
	const out = new Map<string, { name: string; uses: number }>();
	for (const n of instances) {
		const type = String(n['type']);
		out.set(String(n['id']), { name: names.get(type)!, uses: instances.filter((m) => m['type'] === n['type']).length });
	}
	return out;
}

function primitivesOf(nodes: JsonObject[], links: Json | undefined): CanvasLayout['primitives'] {
	const targets = new Map<string, { node: string; slot: number }>();
	for (const l of Array.isArray(links) ? links : []) {
		if (Array.isArray(l) && l.length >= 5) targets.set(String(l[0]), { node: String(l[3]), slot: num(l[4], -1) });
		else if (isObject(l)) targets.set(String(l['id']), { node: String(l['target_id']), slot: num(l['target_slot'], -1) });
	}
	const byId = new Map(nodes.map((n) => [String(n['id']), n]));
	const out: CanvasLayout['primitives'] = [];
	for (const node of nodes) {
		if (node['type'] !== 'PrimitiveNode') continue;
		const outputs = Array.isArray(node['outputs']) ? node['outputs'] : [];
		const linkIds = isObject(outputs[0]) && Array.isArray(outputs[0]['links']) ? outputs[0]['links'] : [];
		const fields: string[] = [];
		for (const id of linkIds) {
			const t = targets.get(String(id));
			const input = t ? byId.get(t.node)?.['inputs'] : undefined;
			const slot = Array.isArray(input) && t ? input[t.slot] : undefined;
			if (!t || !isObject(slot)) continue;
			const name = isObject(slot['widget']) && typeof slot['widget']['name'] === 'string' ? slot['widget']['name'] : slot['name'];
			if (typeof name === 'string') fields.push(`${t.node}.${name}`);
		}
		if (fields.length > 0) out.push({ title: typeof node['title'] === 'string' ? node['title'] : 'Primitive', fields });
	}
	return out;
}

/** The smallest group whose bounds hold the node's top-left corner, as the editor finds a node's group. */
export function groupOf(layout: CanvasLayout, node: CanvasNode): CanvasGroup | undefined {
	let best: CanvasGroup | undefined;
	for (const g of layout.groups) {
		const inside = node.x >= g.x && node.y >= g.y && node.x <= g.x + g.width && node.y <= g.y + g.height;
		if (inside && (!best || g.width * g.height < best.width * best.height)) best = g;
	}
	return best;
}

/**
 * Where a node (a prompt id; one inside a subgraph reads as its top-level node) comes when a person
 * reads the canvas: its group's top-left, then its own (top to bottom, then left to right). Nodes the
 * canvas does not place come last.
 */
export function readingKey(layout: CanvasLayout, nodeId: string): number[] {
	const node = layout.nodes.get(nodeId.split(':')[0]!);
	const anchor = (node ? groupOf(layout, node) : undefined) ?? node ?? { x: Infinity, y: Infinity };
	return [anchor.y, anchor.x, node?.y ?? Infinity, node?.x ?? Infinity];
}

export function compareReadingKeys(a: readonly number[], b: readonly number[]): number {
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
	return 0;
}

/** Prompt node ids in the order a person reads the canvas; ids the canvas does not place keep their order, last. */
export function readingOrder(layout: CanvasLayout, ids: readonly string[]): string[] {
	const keys = new Map(ids.map((id) => [id, readingKey(layout, id)]));
	return [...ids].sort((a, b) => compareReadingKeys(keys.get(a)!, keys.get(b)!));
}
