/**
 * The automatic left-to-right layout of a workflow without the author's positions, by dagre
 * (@dagrejs/dagre; chosen over ELK by measurement, see docs/ARCHITECTURE.md "The run graph").
 * Imported only by the graph view's lazily loaded chunk.
 */
import { Graph, layout } from '@dagrejs/dagre';
import type { RunGraph } from './run-graph';

const GAP_BETWEEN_NODES = 28;
const GAP_BETWEEN_RANKS = 72;

/** Returns `graph` with every box placed (top-left corners), edges without bends; an author's layout is kept. */
export function layoutGraph(graph: RunGraph): RunGraph {
	if (graph.layout === 'author' || graph.nodes.length === 0) return graph;
	const g = new Graph({ multigraph: false });
	// tight-tree ranks: the network simplex ranker costs seconds on a 500-node workflow with long links.
	g.setGraph({ rankdir: 'LR', nodesep: GAP_BETWEEN_NODES, ranksep: GAP_BETWEEN_RANKS, ranker: 'tight-tree', marginx: 0, marginy: 0 });
	g.setDefaultEdgeLabel(() => ({}));
	for (const node of graph.nodes) g.setNode(node.id, { width: node.width, height: node.height });
	for (const edge of graph.edges) g.setEdge(edge.from, edge.to);
	layout(g);
	const nodes = graph.nodes.map((node) => {
		const placed = g.node(node.id);
		return { ...node, x: placed.x - node.width / 2, y: placed.y - node.height / 2 };
	});
	return { ...graph, nodes };
}
