/**
 * Checks a workflow against the server's node definitions before it is sent, so a person hears
 * about an unknown node type, a dangling link or a missing input with the node id and title
 * instead of a bare 400. The server still validates; this only explains early.
 */
import { own } from '../../core/protocol/json';
import type { ApiPrompt } from '../protocol/workflow-api';
import type { NodeDefinitions } from '../protocol/object-info';
import { nodeTitle } from './workflow-import';
import type { MissingNodeType } from '../protocol/library';
import { missingNodeTypeCure } from './missing-node-words';
import { newerCoreNode } from './newer-core-nodes';

function cureOf(known: readonly MissingNodeType[], type: string): string {
	const found = known.find((k) => k.type === type);
	if (found) return `: ${missingNodeTypeCure(found)}`;
	return newerCoreNode(type) ? `: ${missingNodeTypeCure({ type })}` : ' (a custom node that is not installed?)';
}

export interface WorkflowProblem {
	nodeId: string;
	title: string;
	inputName?: string;
	message: string;
}

/** A link is `[source node id, output slot]`. */
export function isLink(value: unknown): value is [string, number] {
	return (
		Array.isArray(value) &&
		value.length === 2 &&
		(typeof value[0] === 'string' || typeof value[0] === 'number') &&
		typeof value[1] === 'number'
	);
}

/** `known`: what the import learned of missing node types (core or which pack), so the words say where they come from. */
export function checkWorkflow(prompt: ApiPrompt, nodes: NodeDefinitions, known: readonly MissingNodeType[] = []): WorkflowProblem[] {
	const problems: WorkflowProblem[] = [];
	for (const [id, node] of Object.entries(prompt)) {
		const definition = own(nodes, node.class_type);
		const title = nodeTitle(prompt, id, definition?.displayName);
		if (!definition) {
			problems.push({
				nodeId: id,
				title,
				message: `Node ${id} "${title}" uses the node type "${node.class_type}", which this server does not have${cureOf(known, node.class_type)}.`
			});
			continue;
		}
		if (definition.problem) {
			problems.push({
				nodeId: id,
				title,
				message: `Node ${id} "${title}" uses the node type "${node.class_type}", whose definition from this server is broken: ${definition.problem}`
			});
			continue;
		}
		for (const [inputName, value] of Object.entries(node.inputs)) {
			if (!isLink(value)) continue;
			const [sourceId, slot] = [String(value[0]), value[1]];
			const source = own(prompt, sourceId);
			if (!source) {
				problems.push({
					nodeId: id,
					title,
					inputName,
					message: `Node ${id} "${title}": input "${inputName}" links to node ${sourceId}, which is not in the workflow.`
				});
				continue;
			}
			const sourceDefinition = own(nodes, source.class_type);
			if (sourceDefinition && (slot < 0 || slot >= sourceDefinition.outputs.length)) {
				problems.push({
					nodeId: id,
					title,
					inputName,
					message: `Node ${id} "${title}": input "${inputName}" links to output ${slot} of node ${sourceId} "${nodeTitle(prompt, sourceId, sourceDefinition.displayName)}", which has ${sourceDefinition.outputs.length} output${sourceDefinition.outputs.length === 1 ? '' : 's'}.`
				});
			}
		}
		for (const input of definition.inputs) {
			if (input.required && !Object.hasOwn(node.inputs, input.name)) {
				problems.push({
					nodeId: id,
					title,
					inputName: input.name,
					message: `Node ${id} "${title}": the required input "${input.name}" is missing.`
				});
			}
		}
	}
	return problems;
}

/** True when the workflow uses a partner node, whose run must carry `extra_data.api_key_service_org`. */
export function usesPartnerNodes(prompt: ApiPrompt, nodes: NodeDefinitions): boolean {
	return Object.values(prompt).some((node) => own(nodes, node.class_type)?.apiNode === true);
}
