/**
 * What a run's inputs name that a server may not have: every value of a list input (a checkpoint,
 * a LoRA, a sampler) in the run, as a candidate the form then checks against what the server
 * offers (`workflow-editor.svelte.ts` keeps those it does not offer). Pure.
 */
import type { ApiPrompt } from '../../core/protocol/workflow-run';
import type { MissingModel } from '../protocol/library';
import type { NodeDefinitions } from '../protocol/object-info';

export function listValuesOf(prompt: ApiPrompt, nodes: NodeDefinitions): MissingModel[] {
	const out: MissingModel[] = [];
	for (const [nodeId, node] of Object.entries(prompt)) {
		const definition = Object.hasOwn(nodes, node.class_type) ? nodes[node.class_type] : undefined;
		if (!definition) continue; // a missing node type is named by the workflow check
		for (const input of definition.inputs) {
			if (input.type.kind !== 'COMBO' || !Object.hasOwn(node.inputs, input.name)) continue;
			const value = node.inputs[input.name];
			if (typeof value !== 'string') continue;
			out.push({ name: value, nodeId, title: node._meta?.title ?? definition.displayName, input: input.name });
		}
	}
	return out;
}
