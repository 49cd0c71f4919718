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
import { fileRoute, groupNodeName, idOf, levelFile, num, readFile, subgraphDefinitions, type FileLink } from './run-graph-file';
import { COLLAPSED_HEIGHT, NODE_HEIGHT, NODE_WIDTH, type GraphEdge, type GraphNode, type RunGraph } from './run-graph-types';

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
