/**
 * The automatic left-to-right layout of a workflow without the author's positions: dagre
 * (@dagrejs/dagre; chosen over ELK by measurement, see docs/ARCHITECTURE.md "The run graph") up to
 * `DAGRE_LIMIT` boxes; above it, where dagre takes seconds, a plain layered layout (longest-path
 * columns, barycentre order, boxes pulled level with their inputs) that takes milliseconds.
 * Imported only by the graph view's lazily loaded chunk.
 */
import { Graph, layout } from '@dagrejs/dagre';
import type { RunGraph } from './run-graph-types';

const GAP_BETWEEN_NODES = 28;
const GAP_BETWEEN_RANKS = 72;

/** Above this many boxes dagre costs more than a second on a phone-class CPU (measured: 1.5-5.6 s for 506 on a busy 2-core machine). */
export const DAGRE_LIMIT = 150;

/** Returns `graph` with every box placed (top-left corners), edges without bends; an author's layout is kept. */
export function layoutGraph(graph: RunGraph): RunGraph {
	if (graph.layout === 'author' || graph.nodes.length === 0) return graph;
	return graph.nodes.length > DAGRE_LIMIT ? layeredLayout(graph) : dagreLayout(graph);
}

function dagreLayout(graph: RunGraph): RunGraph {
	const g = new Graph({ multigraph: false });
	// tight-tree ranks: the network simplex ranker costs seconds on a 500-node workflow with long links.
	g.setGraph({ rankdir: 'LR', nodesep: GAP_BETWEEN_NODES, ranksep: GAP_BETWEEN_RANKS, ranker: 'tight-tree', marginx: 0, marginy: 0 });
	g.setDefaultEdgeLabel(() => ({}));
	// dagre keys plain objects by id, so a workflow's own ids (`constructor`, `__proto__`) never reach it: boxes are `n0`, `n1`…
	const key = new Map(graph.nodes.map((node, i) => [node.id, `n${i}`]));
	for (const node of graph.nodes) g.setNode(key.get(node.id)!, { width: node.width, height: node.height });
	for (const edge of graph.edges) {
		const from = key.get(edge.from);
		const to = key.get(edge.to);
		if (from !== undefined && to !== undefined) g.setEdge(from, to);
	}
	layout(g);
	const nodes = graph.nodes.map((node) => {
		const placed = g.node(key.get(node.id)!);
		return { ...node, x: placed.x - node.width / 2, y: placed.y - node.height / 2 };
	});
	return { ...graph, nodes };
}

const SWEEPS = 4;

/** Columns by longest path from the sources, each column ordered by its inputs' and outputs' places. */
export function layeredLayout(graph: RunGraph): RunGraph {
	const ids = graph.nodes.map((n) => n.id);
	const inputs = new Map<string, string[]>(ids.map((id) => [id, []]));
	const outputs = new Map<string, string[]>(ids.map((id) => [id, []]));
	for (const e of graph.edges) {
		inputs.get(e.to)?.push(e.from);
		outputs.get(e.from)?.push(e.to);
	}
	// Longest path by Kahn's order; a node on a cycle (a prompt has none) keeps its last rank.
	const rank = new Map<string, number>(ids.map((id) => [id, 0]));
	const waiting = new Map<string, number>(ids.map((id) => [id, inputs.get(id)!.length]));
	const queue = ids.filter((id) => waiting.get(id) === 0);
	for (let i = 0; i < queue.length; i++) {
		const id = queue[i]!;
		for (const next of outputs.get(id)!) {
			rank.set(next, Math.max(rank.get(next)!, rank.get(id)! + 1));
			const left = waiting.get(next)! - 1;
			waiting.set(next, left);
			if (left === 0) queue.push(next);
		}
	}
	const columns: string[][] = [];
	for (const id of ids) (columns[rank.get(id)!] ??= []).push(id);
	const place = new Map<string, number>();
	const renumber = (column: string[]) => column.forEach((id, i) => place.set(id, i));
	columns.forEach(renumber);
	const barycentre = (id: string, side: Map<string, string[]>) => {
		const near = side.get(id)!;
		return near.length === 0 ? place.get(id)! : near.reduce((sum, n) => sum + place.get(n)!, 0) / near.length;
	};
	for (let sweep = 0; sweep < SWEEPS; sweep++) {
		const forward = sweep % 2 === 0;
		const order = forward ? columns.slice(1) : columns.slice(0, -1).reverse();
		for (const column of order) {
			const key = new Map(column.map((id) => [id, barycentre(id, forward ? inputs : outputs)]));
			column.sort((a, b) => key.get(a)! - key.get(b)!);
			renumber(column);
		}
	}
	const byId = new Map(graph.nodes.map((n) => [n.id, n]));
	const placed = new Map<string, { x: number; y: number }>();
	let x = 0;
	for (const column of columns) {
		if (!column) continue;
		let bottom = -Infinity;
		let widest = 0;
		for (const id of column) {
			const node = byId.get(id)!;
			const from = inputs.get(id)!.flatMap((n) => {
				const p = placed.get(n);
				return p ? [p.y + byId.get(n)!.height / 2] : [];
			});
			const wanted = from.length > 0 ? from.reduce((a, b) => a + b, 0) / from.length - node.height / 2 : 0;
			const y = Math.max(wanted, bottom + GAP_BETWEEN_NODES);
			placed.set(id, { x, y });
			bottom = y + node.height;
			widest = Math.max(widest, node.width);
		}
		x += widest + GAP_BETWEEN_RANKS;
	}
	return { ...graph, nodes: graph.nodes.map((n) => ({ ...n, ...placed.get(n.id)! })) };
}
