/** The shapes of a run's workflow picture: boxes, links, groups, and the box sizes. */

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
export const COLLAPSED_HEIGHT = 30;
export const MAX_REROUTE_CHAIN = 64;
