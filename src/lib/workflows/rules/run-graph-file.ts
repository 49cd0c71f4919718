/**
 * What the picture takes from an untrusted UI-format file: node places and sizes, typed links, groups,
 * reroutes (native and legacy `Reroute` nodes), and the graph of each subgraph or group-node level.
 */
import { isObject, type Json, type JsonObject } from '../../core/protocol/json';
import { COLLAPSED_HEIGHT, MAX_REROUTE_CHAIN, NODE_HEIGHT, NODE_WIDTH, type GraphGroup } from './run-graph-types';

export const num = (v: Json | undefined, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
export const idOf = (v: Json | undefined): string | null =>
	typeof v === 'number' || (typeof v === 'string' && v !== '') ? String(v) : null;

export function pair(v: Json | undefined, fallback: [number, number]): [number, number] {
	if (Array.isArray(v)) return [num(v[0], fallback[0]), num(v[1], fallback[1])];
	if (isObject(v)) return [num(v['0'], fallback[0]), num(v['1'], fallback[1])];
	return fallback;
}

export interface FileLink {
	from: string;
	to: string;
	type: string;
	parentId: string | null;
}

export interface FileFacts {
	nodes: Map<string, { title?: string; type: string; x: number; y: number; width: number; height: number; collapsed: boolean }>;
	links: FileLink[];
	groups: GraphGroup[];
	reroutes: Map<string, { x: number; y: number; parentId: string | null }>;
	/** Legacy reroutes (nodes of type `Reroute`, gone from the prompt): their centres, by node id. */
	rerouteNodes: Map<string, { x: number; y: number }>;
	subgraphNames: Map<string, string>;
}

/**
 * Reads what the picture needs from one graph of an untrusted UI-format file: the workflow's top
 * level, a subgraph definition or a group node's inside (all have `nodes`, `links`, `groups`).
 */
export function readFile(ui: JsonObject, subgraphNames: Map<string, string>): FileFacts {
	const nodes: FileFacts['nodes'] = new Map();
	const rerouteNodes: FileFacts['rerouteNodes'] = new Map();
	for (const raw of Array.isArray(ui['nodes']) ? ui['nodes'].filter(isObject) : []) {
		const id = idOf(raw['id']);
		if (id === null) continue;
		const [x, y] = pair(raw['pos'], [0, 0]);
		if (raw['type'] === 'Reroute') {
			const [w, h] = pair(raw['size'], [75, 26]);
			rerouteNodes.set(id, { x: x + w / 2, y: y + h / 2 });
			continue;
		}
		const [width, height] = pair(raw['size'], [NODE_WIDTH, NODE_HEIGHT]);
		const flags = isObject(raw['flags']) ? raw['flags'] : {};
		const title = typeof raw['title'] === 'string' && raw['title'].trim() ? raw['title'] : undefined;
		const type = typeof raw['type'] === 'string' ? raw['type'] : '';
		nodes.set(id, {
			...(title ? { title } : {}),
			type,
			x,
			y,
			width: Math.max(40, width),
			height: Math.max(20, height),
			collapsed: flags['collapsed'] === true
		});
	}
	const extra = isObject(ui['extra']) ? ui['extra'] : {};
	const extensions = new Map<string, string>();
	for (const e of Array.isArray(extra['linkExtensions']) ? extra['linkExtensions'].filter(isObject) : []) {
		const id = idOf(e['id']);
		const parent = idOf(e['parentId']);
		if (id !== null && parent !== null) extensions.set(id, parent);
	}
	const links: FileLink[] = [];
	for (const raw of Array.isArray(ui['links']) ? ui['links'] : []) {
		if (Array.isArray(raw)) {
			const [id, from, , to, , type] = raw;
			const f = idOf(from);
			const t = idOf(to);
			if (f !== null && t !== null)
				links.push({ from: f, to: t, type: typeof type === 'string' ? type : '*', parentId: extensions.get(idOf(id) ?? '') ?? null });
		} else if (isObject(raw)) {
			const f = idOf(raw['origin_id']);
			const t = idOf(raw['target_id']);
			if (f !== null && t !== null)
				links.push({
					from: f,
					to: t,
					type: typeof raw['type'] === 'string' ? raw['type'] : '*',
					parentId: idOf(raw['parentId']) ?? extensions.get(idOf(raw['id']) ?? '') ?? null
				});
		}
	}
	const reroutes: FileFacts['reroutes'] = new Map();
	const rawReroutes = Array.isArray(ui['reroutes']) ? ui['reroutes'] : Array.isArray(extra['reroutes']) ? extra['reroutes'] : [];
	for (const r of rawReroutes.filter(isObject)) {
		const id = idOf(r['id']);
		if (id === null) continue;
		const [x, y] = pair(r['pos'], [0, 0]);
		reroutes.set(id, { x, y, parentId: idOf(r['parentId']) });
	}
	const groups: GraphGroup[] = [];
	for (const g of Array.isArray(ui['groups']) ? ui['groups'].filter(isObject) : []) {
		const b = Array.isArray(g['bounding']) ? g['bounding'] : [];
		groups.push({
			title: typeof g['title'] === 'string' ? g['title'] : 'Group',
			...(typeof g['color'] === 'string' ? { color: g['color'] } : {}),
			x: num(b[0], 0),
			y: num(b[1], 0),
			width: num(b[2], 0),
			height: num(b[3], 0)
		});
	}
	return { nodes, links, groups, reroutes, rerouteNodes, subgraphNames };
}

const MAX_DEFINITION_DEPTH = 64;

/** Every subgraph definition of the file by id (definitions may hold their own; all share one id space). */
export function subgraphDefinitions(ui: JsonObject): Map<string, JsonObject> {
	const found = new Map<string, JsonObject>();
	const collect = (holder: Json | undefined, depth: number): void => {
		const definitions = isObject(holder) ? holder['definitions'] : undefined;
		if (depth > MAX_DEFINITION_DEPTH || !isObject(definitions) || !Array.isArray(definitions['subgraphs'])) return;
		for (const def of definitions['subgraphs'].filter(isObject)) {
			const id = idOf(def['id']);
			if (id !== null && !found.has(id)) found.set(id, def);
			collect(def, depth + 1);
		}
	};
	collect(ui, 0);
	return found;
}

export function groupNodeName(type: string): string | undefined {
	if (type.startsWith('workflow>')) return type.slice('workflow>'.length);
	if (type.startsWith('workflow/')) return type.slice('workflow/'.length);
	return undefined;
}

/**
 * A group node's inside (`extra.groupNodes[name]`) as a graph: inner nodes known by their index, links
 * `[from, fromSlot, to, toSlot, …, type]` between indices. An inner node without `pos` is left out of
 * the file's placing, so the inside is laid out automatically (the editor's own group node configs may
 * not carry positions).
 */
function groupNodeGraph(def: JsonObject): JsonObject {
	const nodes: JsonObject[] = [];
	(Array.isArray(def['nodes']) ? def['nodes'] : []).forEach((n, index) => {
		if (isObject(n) && n['pos'] !== undefined) nodes.push({ ...n, id: index });
	});
	const links: Json[] = [];
	for (const l of Array.isArray(def['links']) ? def['links'] : []) {
		if (Array.isArray(l)) links.push([null, l[0] ?? null, l[1] ?? null, l[2] ?? null, l[3] ?? null, l[5] ?? null]);
	}
	return { nodes, links };
}

/** The graph of the file that `level`'s boxes come from: the top level, or the definition of each instance on the way down. */
export function levelFile(ui: JsonObject, level: string, definitions: Map<string, JsonObject>): JsonObject | null {
	let graph: JsonObject = ui;
	if (level === '') return graph;
	const extra = isObject(ui['extra']) ? ui['extra'] : {};
	const groupNodes = isObject(extra['groupNodes']) ? extra['groupNodes'] : {};
	for (const step of level.split(':')) {
		const instance = (Array.isArray(graph['nodes']) ? graph['nodes'] : []).find((n) => isObject(n) && idOf(n['id']) === step);
		const type = isObject(instance) && typeof instance['type'] === 'string' ? instance['type'] : null;
		if (type === null) return null;
		const group = groupNodeName(type);
		const groupDef = group !== undefined && Object.hasOwn(groupNodes, group) ? groupNodes[group] : undefined;
		const next = definitions.get(type) ?? (isObject(groupDef) ? groupNodeGraph(groupDef) : undefined);
		if (!next) return null;
		graph = next;
	}
	return graph;
}

/**
 * The file's link from `from` into `to` and the points it bends through: native reroutes on it, or a
 * chain of legacy `Reroute` nodes between the two (the prompt links the ends straight).
 */
export function fileRoute(
	facts: FileFacts,
	into: Map<string, FileLink[]>,
	from: string,
	to: string
): { link: FileLink; points: Array<{ x: number; y: number }> } | null {
	for (const link of into.get(to) ?? []) {
		if (link.from === from) return { link, points: reroutePoints(facts, link.parentId) };
		const points: Array<{ x: number; y: number }> = [];
		const seen = new Set<string>();
		let at: FileLink | undefined = link;
		while (at && facts.rerouteNodes.has(at.from) && !seen.has(at.from) && points.length < MAX_REROUTE_CHAIN) {
			seen.add(at.from);
			points.unshift(facts.rerouteNodes.get(at.from)!);
			at = into.get(at.from)?.[0];
		}
		if (at?.from === from) return { link, points };
	}
	return null;
}

function reroutePoints(facts: FileFacts, parentId: string | null): Array<{ x: number; y: number }> {
	const points: Array<{ x: number; y: number }> = [];
	const seen = new Set<string>();
	let at = parentId;
	while (at !== null && !seen.has(at) && points.length < MAX_REROUTE_CHAIN) {
		seen.add(at);
		const r = facts.reroutes.get(at);
		if (!r) break;
		points.push({ x: r.x, y: r.y });
		at = r.parentId;
	}
	return points.reverse();
}
