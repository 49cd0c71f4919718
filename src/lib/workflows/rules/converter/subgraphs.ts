/**
 * Flattening: every node of the workflow gets its execution id, the way the editor's
 * `ExecutableNodeDTO` names it: root nodes keep their id, nodes inside a subgraph instance are
 * `<instance id>:<inner id>` (nested: `1:2:3`). Group nodes (the deprecated `extra.groupNodes`)
 * become one-off subgraphs with inner ids `<group node id>:<index>`, so one resolver serves both.
 * Expansion is bounded in depth and in the number of nodes it may create, so a subgraph used many
 * times inside itself cannot blow up.
 */
import type { NodeDefinitions } from '../../protocol/object-info';
import type { Json } from '../../../core/protocol/json';
import {
	MODE_BYPASS,
	MODE_MUTED,
	SUBGRAPH_INPUT_ID,
	SUBGRAPH_OUTPUT_ID,
	type UiGraph,
	type UiGroupNodeDef,
	type UiLink,
	type UiNode,
	type UiSubgraph,
	type UiWorkflow
} from './ui-format';
import { widgetValues } from './widgets';
import { groupWidgetLayout, groupWidgetValues } from './group-widgets';

export const MAX_SUBGRAPH_DEPTH = 32;
export const MAX_EXPANDED_NODES = 50_000;

export interface ExecNode {
	/** Execution id: the path of instance ids and the node's own id, joined by `:`. */
	id: string;
	node: UiNode;
	/** The graph that holds the node and its links. */
	graph: UiGraph;
	/** `parent.id + ':'`, or '' at the root. */
	prefix: string;
	/** The subgraph (or group node) instance this node sits in. */
	parent: ExecNode | undefined;
	/** The node's mode, or its instance's when that instance is muted or bypassed. */
	mode: number;
	/** Set on subgraph and group node instances: the graph they stand for. */
	subgraph: UiSubgraph | undefined;
	/** Promoted widget values of a subgraph instance, by input slot. */
	promoted: Map<number, Json> | undefined;
}

export class ConvertFailure extends Error {
	constructor(
		readonly kind: string,
		message: string
	) {
		super(message);
	}
}

function groupName(type: string): string | undefined {
	if (type.startsWith('workflow>')) return type.slice('workflow>'.length);
	if (type.startsWith('workflow/')) return type.slice('workflow/'.length);
	return undefined;
}

/** Promoted widgets: one value per instance input that stands for a widget, in input order. */
function promotedValues(instance: UiNode): Map<number, Json> {
	const promoted = new Map<number, Json>();
	const stored = instance.widgetsValues;
	let position = 0;
	instance.inputs.forEach((input, slot) => {
		if (input.widgetName === undefined) return;
		const value = stored instanceof Map ? stored.get(input.widgetName) : stored?.[position];
		position++;
		if (value !== undefined) promoted.set(slot, value);
	});
	return promoted;
}

/**
 * A group node as a subgraph of its own: inner links by index, the instance's inputs on the inner
 * inputs no inner link feeds, its outputs on the inner outputs that are not used inside (or are
 * marked external), and its widget values spread over the inner widgets as `group-widgets` lays them out.
 */
export function groupNodeAsSubgraph(instance: UiNode, def: UiGroupNodeDef, definitions: NodeDefinitions): UiSubgraph {
	const nodes: UiNode[] = def.nodes.map((n) => ({
		...n,
		inputs: n.inputs.map((i) => ({ ...i, link: null })),
		outputs: n.outputs.map((o) => ({ ...o, links: [] }))
	}));
	const links = new Map<string, UiLink>();
	const fedInside = new Set<string>();
	const usedInside = new Set<string>();
	def.links.forEach(([from, fromSlot, to, toSlot], n) => {
		const target = nodes[to];
		const input = target?.inputs[toSlot];
		if (!target || !input || !nodes[from]) return;
		const id = `gl${n}`;
		links.set(id, { originId: String(from), originSlot: fromSlot, targetId: String(to), targetSlot: toSlot, type: input.type });
		input.link = id;
		nodes[from]!.outputs[fromSlot]?.links.push(id);
		fedInside.add(`${to}:${toSlot}`);
		usedInside.add(`${from}:${fromSlot}`);
	});
	const external = new Set(def.external.map(([i, s]) => `${i}:${s}`));
	const inputs: UiSubgraph['inputs'] = [];
	const outputs: UiSubgraph['outputs'] = [];
	const addInput = (index: number, slot: number): void => {
		const input = nodes[index]!.inputs[slot]!;
		if (fedInside.has(`${index}:${slot}`)) return;
		const k = inputs.length;
		const id = `gi${k}`;
		links.set(id, { originId: SUBGRAPH_INPUT_ID, originSlot: k, targetId: String(index), targetSlot: slot, type: input.type });
		input.link = id;
		inputs.push({ name: input.name, type: input.type, linkIds: [id] });
	};
	// The editor's GroupNodeConfig: each inner node's plain inputs in order, then (after all nodes)
	// the widgets converted to inputs; outputs used only inside are hidden.
	nodes.forEach((node, index) => node.inputs.forEach((input, slot) => input.widgetName === undefined && addInput(index, slot)));
	nodes.forEach((node, index) => node.inputs.forEach((input, slot) => input.widgetName !== undefined && addInput(index, slot)));
	nodes.forEach((node, index) => {
		node.outputs.forEach((output, slot) => {
			const key = `${index}:${slot}`;
			if (usedInside.has(key) && !external.has(key)) return;
			const k = outputs.length;
			const id = `go${k}`;
			links.set(id, { originId: String(index), originSlot: slot, targetId: SUBGRAPH_OUTPUT_ID, targetSlot: k, type: output.type });
			outputs.push({ name: output.name, type: output.type, linkIds: [id] });
		});
	});
	// The group's widgets: the instance's values by the editor's layout, over each inner node's own.
	const stored = Array.isArray(instance.widgetsValues) ? instance.widgetsValues : [];
	const groupValues = groupWidgetValues(groupWidgetLayout(nodes, definitions, fedInside), stored);
	nodes.forEach((node, index) => {
		const given = groupValues.get(index);
		if (node.type === 'PrimitiveNode') {
			if (given?.has('value')) node.widgetsValues = [given.get('value')!];
			return;
		}
		const definition = Object.hasOwn(definitions, node.type) ? definitions[node.type] : undefined;
		if (!definition) return;
		const own = widgetValues(definition, node.widgetsValues).values;
		for (const [name, value] of given ?? []) own.set(name, value);
		node.widgetsValues = own;
	});
	return { id: instance.type, name: instance.type, nodes, links, inputs, outputs };
}

export interface Expansion {
	nodes: Map<string, ExecNode>;
}

/** Flattens the workflow into execution nodes, depth first, each instance before its inner nodes. */
export function expandWorkflow(workflow: UiWorkflow, definitions: NodeDefinitions): Expansion {
	const nodes = new Map<string, ExecNode>();
	const open = new Set<string>();
	const visit = (graph: UiGraph, parent: ExecNode | undefined, depth: number): void => {
		const prefix = parent ? `${parent.id}:` : '';
		for (const node of graph.nodes) {
			if (nodes.size >= MAX_EXPANDED_NODES) {
				throw new ConvertFailure(
					'too-large',
					`The workflow expands to more than ${MAX_EXPANDED_NODES} nodes once its subgraphs are unfolded; Runboard stops there.`
				);
			}
			const id = prefix + node.id;
			if (nodes.has(id)) throw new ConvertFailure('invalid-workflow', `Two nodes share the id ${id}.`);
			const inherited = parent && (parent.mode === MODE_MUTED || parent.mode === MODE_BYPASS) ? parent.mode : node.mode;
			const exec: ExecNode = { id, node, graph, prefix, parent, mode: inherited, subgraph: undefined, promoted: undefined };
			nodes.set(id, exec);
			const group = groupName(node.type);
			const subgraph =
				workflow.subgraphs.get(node.type) ??
				(group !== undefined && workflow.groupNodes.has(group)
					? groupNodeAsSubgraph(node, workflow.groupNodes.get(group)!, definitions)
					: undefined);
			if (!subgraph) continue;
			if (depth + 1 > MAX_SUBGRAPH_DEPTH) {
				throw new ConvertFailure('too-deep', `Subgraphs nest more than ${MAX_SUBGRAPH_DEPTH} levels deep (at node ${id}).`);
			}
			if (open.has(subgraph.id)) {
				throw new ConvertFailure('subgraph-cycle', `Subgraph "${subgraph.name}" contains itself (at node ${id}).`);
			}
			exec.subgraph = subgraph;
			exec.promoted = promotedValues(node);
			open.add(subgraph.id);
			visit(subgraph, exec, depth + 1);
			open.delete(subgraph.id);
		}
	};
	visit(workflow.root, undefined, 0);
	return { nodes };
}
