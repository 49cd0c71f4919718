/**
 * The picture of a run's workflow: which boxes to draw, where, and the links between them. The
 * prompt as sent is the truth of what ran; a UI-format file (the library's copy of the workflow)
 * adds the author's layout, groups, collapsed nodes, link types and reroutes (native ones, and legacy
 * `Reroute` nodes, drawn as points on their link, not as boxes). A subgraph (or group node)
 * instance is one box standing for every prompt node whose path id starts with its id (`a:b:c`
 * belongs to box `a`); the box opens into its inside, a level of its own: `buildRunGraph(prompt, ui,
 * 'a')` draws the prompt nodes under `a` (box `a:b` stands for `a:b:c`) with the layout of `a`'s
 * definition. Without a file, boxes have no position yet: `layoutGraph` places them.
 */
import { isObject, type Json, type JsonObject } from '../../core/protocol/json';
import type { ApiPrompt } from '../protocol/workflow-api';

export interface GraphNode {
	id: string;
	title: string;
	classType: string;
	x: number;
	y: number;
	width: number;
	height: number;
	collapsed: boolean;
	/** The prompt node ids this box stands for: itself, or a subgraph's inside. */
	members: string[];
}

export interface GraphEdge {
	id: string;
	from: string;
	to: string;
	/** The link's type (`MODEL`, `IMAGE`…) where the file says, else `*`. */
	type: string;
	/** Native reroutes on the link, from the origin towards the target. */
	points: Array<{ x: number; y: number }>;
}

export interface GraphGroup {
	title: string;
	color?: string;
	x: number;
	y: number;
	width: number;
	height: number;
}

export interface RunGraph {
	nodes: GraphNode[];
	edges: GraphEdge[];
	groups: GraphGroup[];
	/** `author`: positions from the file; `auto`: to be laid out. */
	layout: 'author' | 'auto';
}

export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 64;
const COLLAPSED_HEIGHT = 30;
const MAX_REROUTE_CHAIN = 64;

const num = (v: Json | undefined, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const idOf = (v: Json | undefined): string | null => (typeof v === 'number' || (typeof v === 'string' && v !== '') ? String(v) : null);

function pair(v: Json | undefined, fallback: [number, number]): [number, number] {
	if (Array.isArray(v)) return [num(v[0], fallback[0]), num(v[1], fallback[1])];
	if (isObject(v)) return [num(v['0'], fallback[0]), num(v['1'], fallback[1])];
	return fallback;
}

/** The box a prompt node id is drawn in: itself when shown, else its outermost subgraph instance. */
export function visibleNodeOf(graph: Pick<RunGraph, 'nodes'> & { index?: Map<string, string> }, promptId: string): string | undefined {
	return boxOf(graph.index ?? memberIndex(graph.nodes), promptId);
}

/**
 * The box of a level's index (`memberIndex`) a path id is drawn in: the box of the id itself, else of
 * the longest path above it that the level shows (`5:3:7` → `5:3` inside `5`, → `5` at the top).
 */
export function boxOf(index: ReadonlyMap<string, string>, promptId: string): string | undefined {
	let id = promptId;
	for (;;) {
		const box = index.get(id);
		if (box !== undefined) return box;
		const cut = id.lastIndexOf(':');
		if (cut < 0) return undefined;
		id = id.slice(0, cut);
	}
}

/** Whether a box stands for an inside it opens into (a subgraph or group node instance). */
export const opensInto = (node: GraphNode): boolean => node.members.length > 0;

/** The levels from the top to `level` (`a:b` → `['a', 'a:b']`); the top level is `''`. */
export function levelPath(level: string): string[] {
	if (level === '') return [];
	const parts = level.split(':');
	return parts.map((_, i) => parts.slice(0, i + 1).join(':'));
}

/** Prompt id → box id. */
export function memberIndex(nodes: GraphNode[]): Map<string, string> {
	const index = new Map<string, string>();
	for (const node of nodes) {
		index.set(node.id, node.id);
		for (const m of node.members) index.set(m, node.id);
	}
	return index;
}

function promptLinks(prompt: ApiPrompt): Array<{ from: string; to: string; slot: number }> {
	const links: Array<{ from: string; to: string; slot: number }> = [];
	for (const [to, node] of Object.entries(prompt)) {
		for (const value of Object.values(node.inputs ?? {})) {
			if (
				Array.isArray(value) &&
				value.length === 2 &&
				(typeof value[0] === 'string' || typeof value[0] === 'number') &&
				typeof value[1] === 'number'
			)
				links.push({ from: String(value[0]), to, slot: value[1] });
		}
	}
	return links;
}

interface FileLink {
	from: string;
	to: string;
	type: string;
	parentId: string | null;
}

interface FileFacts {
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
function readFile(ui: JsonObject, subgraphNames: Map<string, string>): FileFacts {
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
function subgraphDefinitions(ui: JsonObject): Map<string, JsonObject> {
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

function groupNodeName(type: string): string | undefined {
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
function levelFile(ui: JsonObject, level: string, definitions: Map<string, JsonObject>): JsonObject | null {
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
 * The prompt nodes of a level, by their id within it (`5:3:7` is `3:7` inside `5`), keeping only the
 * links between them: links from outside the level (a subgraph's inputs) are not drawn inside.
 */
function levelPrompt(prompt: ApiPrompt, level: string): ApiPrompt {
	if (level === '') return prompt;
	const prefix = `${level}:`;
	// Ids and input names come from the workflow file: null-prototype maps.
	const local = Object.create(null) as ApiPrompt;
	for (const [id, node] of Object.entries(prompt)) {
		if (!id.startsWith(prefix)) continue;
		const inputs = Object.create(null) as Record<string, Json>;
		for (const [name, value] of Object.entries(node.inputs ?? {})) {
			if (Array.isArray(value) && value.length === 2 && String(value[0]).startsWith(prefix))
				inputs[name] = [String(value[0]).slice(prefix.length), value[1] as Json];
		}
		local[id.slice(prefix.length)] = { ...node, inputs };
	}
	return local;
}

/** A level's picture with its ids made path ids again (box `3` inside `5` is `5:3`). */
function withPathIds(graph: RunGraph, level: string): RunGraph {
	if (level === '') return graph;
	const path = (id: string) => `${level}:${id}`;
	return {
		...graph,
		nodes: graph.nodes.map((n) => ({ ...n, id: path(n.id), members: n.members.map(path) })),
		edges: graph.edges.map((e) => ({ ...e, id: `${path(e.from)}->${path(e.to)}`, from: path(e.from), to: path(e.to) }))
	};
}

/**
 * The file's link from `from` into `to` and the points it bends through: native reroutes on it, or a
 * chain of legacy `Reroute` nodes between the two (the prompt links the ends straight).
 */
function fileRoute(
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

/**
 * Builds the picture of `prompt` at `level`: the whole workflow (`''`), or the inside of the subgraph or
 * group node box `level` (a path id). With `ui` (the file the workflow came from), prompt nodes the file
 * places keep its position; the others (and every node without a file) wait for the automatic layout.
 */
export function buildRunGraph(fullPrompt: ApiPrompt, ui?: JsonObject | null, level = ''): RunGraph {
	const prompt = levelPrompt(fullPrompt, level);
	const definitions = ui ? subgraphDefinitions(ui) : new Map<string, JsonObject>();
	const names = new Map([...definitions].map(([id, def]) => [id, typeof def['name'] === 'string' ? def['name'] : 'Subgraph']));
	const shownFile = ui ? levelFile(ui, level, definitions) : null;
	const facts = shownFile ? readFile(shownFile, names) : null;
	const byBox = new Map<string, string[]>();
	for (const id of Object.keys(prompt)) {
		const outer = id.split(':')[0]!;
		const box = facts?.nodes.has(id) ? id : facts?.nodes.has(outer) ? outer : id.includes(':') ? outer : id;
		const list = byBox.get(box);
		if (list) list.push(id);
		else byBox.set(box, [id]);
	}
	let placed = 0;
	const nodes: GraphNode[] = [];
	for (const [id, members] of byBox) {
		const own = prompt[id];
		const file = facts?.nodes.get(id);
		const inside = members.length > 1 || !own;
		const subgraphName = file ? facts?.subgraphNames.get(file.type) : undefined;
		const groupName = file ? groupNodeName(file.type) : undefined;
		const title = file?.title ?? own?._meta?.title ?? subgraphName ?? groupName ?? own?.class_type ?? (inside ? `Subgraph ${id}` : id);
		const classType =
			own?.class_type ?? (subgraphName ? `Subgraph “${subgraphName}”` : groupName !== undefined ? `Group node “${groupName}”` : 'Subgraph');
		if (file) placed++;
		nodes.push({
			id,
			title,
			classType,
			x: file?.x ?? 0,
			y: file?.y ?? 0,
			width: file ? (file.collapsed ? Math.max(80, Math.min(file.width, 8 * title.length + 40)) : file.width) : NODE_WIDTH,
			height: file ? (file.collapsed ? COLLAPSED_HEIGHT : file.height) : NODE_HEIGHT,
			collapsed: file?.collapsed ?? false,
			members: inside ? members : []
		});
	}
	const index = memberIndex(nodes);
	const into = new Map<string, FileLink[]>();
	for (const link of facts?.links ?? []) {
		const list = into.get(link.to);
		if (list) list.push(link);
		else into.set(link.to, [link]);
	}
	const edges = new Map<string, GraphEdge>();
	for (const link of promptLinks(prompt)) {
		const from = index.get(link.from) ?? index.get(link.from.split(':')[0]!);
		const to = index.get(link.to);
		if (!from || !to || from === to) continue;
		const id = `${from}->${to}`;
		if (edges.has(id)) continue;
		const route = facts ? fileRoute(facts, into, from, to) : null;
		edges.set(id, { id, from, to, type: route?.link.type ?? '*', points: route?.points ?? [] });
	}
	// Author's layout only when the file places every box: a file from another version of the workflow is laid out afresh.
	const layout = facts && nodes.length > 0 && placed === nodes.length ? 'author' : 'auto';
	return withPathIds({ nodes, edges: [...edges.values()], groups: layout === 'author' ? (facts?.groups ?? []) : [], layout }, level);
}

/**
 * Types for the links no file typed (an API-format workflow): the type the server's node definitions
 * (`object_info`) give the origin's output slot. `outputTypes` answers by node class.
 */
export function typeLinks(graph: RunGraph, prompt: ApiPrompt, outputTypes: (classType: string) => readonly string[] | undefined): RunGraph {
	if (!graph.edges.some((e) => e.type === '*')) return graph;
	const index = memberIndex(graph.nodes);
	const found = new Map<string, string>();
	for (const link of promptLinks(prompt)) {
		const from = boxOf(index, link.from);
		const to = boxOf(index, link.to);
		const id = `${from}->${to}`;
		if (found.has(id)) continue;
		const classType = Object.hasOwn(prompt, link.from) ? prompt[link.from]?.class_type : undefined;
		const type = classType ? outputTypes(classType)?.[link.slot] : undefined;
		if (type) found.set(id, type);
	}
	if (found.size === 0) return graph;
	return { ...graph, edges: graph.edges.map((e) => (e.type === '*' && found.has(e.id) ? { ...e, type: found.get(e.id)! } : e)) };
}

/** Whether any two boxes overlap (tests and the benchmark check the automatic layout with it). */
export function overlaps(nodes: GraphNode[]): Array<[string, string]> {
	const sorted = [...nodes].sort((a, b) => a.x - b.x);
	const found: Array<[string, string]> = [];
	for (let i = 0; i < sorted.length; i++) {
		const a = sorted[i]!;
		for (let j = i + 1; j < sorted.length && sorted[j]!.x < a.x + a.width; j++) {
			const b = sorted[j]!;
			if (b.y < a.y + a.height && a.y < b.y + b.height) found.push([a.id, b.id]);
		}
	}
	return found;
}
