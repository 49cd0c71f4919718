import type { ApiPrompt } from '../../core/protocol/workflow-run';
import type { NodeDefinitions } from '../protocol/object-info';

/** The node types a workflow uses, each once. */
export function typesOf(prompt: ApiPrompt): string[] {
	return [...new Set(Object.values(prompt).map((node) => node.class_type))];
}

/**
 * The definitions of `types` alone, for a page that shows one workflow: a server's full set is
 * hundreds of types (382 on ComfyUI 0.3.64), and copying it to the page on every form costs more
 * than the form. A type the server lacks stays absent, so "missing node" reads the same.
 */
export function definitionsOf(nodes: NodeDefinitions, types: readonly string[]): NodeDefinitions {
	const out = Object.create(null) as NodeDefinitions;
	for (const type of types) {
		const definition = Object.hasOwn(nodes, type) ? nodes[type] : undefined;
		if (definition) out[type] = definition;
	}
	return out;
}
