/**
 * Checks an API-format prompt against the server's node definitions before it is sent: node types
 * the server does not have, links to nodes or outputs that do not exist, and required inputs with
 * no value. The server checks more (ranges, combo choices); these are the ones that make a prompt
 * meaningless however the server is set up.
 */
import type { NodeDefinitions } from '../../protocol/object-info';
import type { ApiPrompt } from '../../protocol/workflow-api';
import type { ConvertMessage } from './convert';

export function checkApiPrompt(prompt: ApiPrompt, definitions: NodeDefinitions): ConvertMessage[] {
	const problems: ConvertMessage[] = [];
	const unknown = new Map<string, string[]>();
	for (const [id, node] of Object.entries(prompt)) {
		const title = node._meta?.title ? ` ("${node._meta.title}")` : '';
		const definition = Object.hasOwn(definitions, node.class_type) ? definitions[node.class_type] : undefined;
		if (!definition) {
			const list = unknown.get(node.class_type) ?? [];
			list.push(`#${id}${title}`);
			unknown.set(node.class_type, list);
			continue;
		}
		for (const [name, value] of Object.entries(node.inputs)) {
			if (!Array.isArray(value)) continue;
			const [from, slot] = value as unknown[];
			const source = typeof from === 'string' && Object.hasOwn(prompt, from) ? prompt[from] : undefined;
			if (!source) {
				problems.push({
					kind: 'dangling-link',
					message: `Node ${id}${title}: input "${name}" is linked from node ${String(from)}, which the workflow does not have.`,
					nodeId: id
				});
				continue;
			}
			const sourceDef = Object.hasOwn(definitions, source.class_type) ? definitions[source.class_type] : undefined;
			if (sourceDef && (typeof slot !== 'number' || !Number.isInteger(slot) || slot < 0 || slot >= sourceDef.outputs.length)) {
				problems.push({
					kind: 'dangling-link',
					message: `Node ${id}${title}: input "${name}" is linked from output ${String(slot)} of node ${String(from)} (${source.class_type}), which has ${sourceDef.outputs.length} outputs.`,
					nodeId: id
				});
			}
		}
		for (const input of definition.inputs) {
			if (input.required && !Object.hasOwn(node.inputs, input.name)) {
				problems.push({
					kind: 'required-input-missing',
					message: `Node ${id}${title} (${node.class_type}): the required input "${input.name}" has no value and no link.`,
					nodeId: id
				});
			}
		}
	}
	if (unknown.size > 0) {
		const lines = [...unknown].map(([type, nodes]) => `- ${type}: ${nodes.join(', ')}`);
		problems.unshift({ kind: 'missing-node-types', message: `This server does not have these node types:\n${lines.join('\n')}` });
	}
	return problems;
}
