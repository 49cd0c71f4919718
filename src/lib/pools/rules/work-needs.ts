/**
 * What a workflow needs of a server, and what a server offers, in the compact forms the choice of
 * a member reads: node types, and model files by the (node type, input) list that offers them.
 * Pure; built once per workflow and once per member's definitions, not per choice.
 */
import type { ApiPrompt } from '../../core/protocol/workflow-run';
import type { NodeDefinitions } from '../../workflows';

/** A model file named by one node input of the workflow. */
export interface ModelUse {
	nodeId: string;
	classType: string;
	input: string;
	name: string;
}

export interface WorkNeeds {
	nodeTypes: readonly string[];
	models: readonly ModelUse[];
}

export interface MemberDefinitions {
	nodeTypes: ReadonlySet<string>;
	/** Each list input's choices, by `listKey(classType, input)`: one list is one model folder as that node reads it. */
	lists: ReadonlyMap<string, readonly string[]>;
}

export const listKey = (classType: string, input: string): string => `${classType}\u0000${input}`;

/** The file endings of model weights and their configs; an input file (a picture, a sound) is not a model. */
const MODEL_FILE = /\.(safetensors|sft|ckpt|pt|pth|bin|gguf|onnx|yaml)$/i;

export function workNeeds(prompt: ApiPrompt): WorkNeeds {
	const nodeTypes = new Set<string>();
	const models: ModelUse[] = [];
	for (const [nodeId, node] of Object.entries(prompt)) {
		nodeTypes.add(node.class_type);
		for (const [input, value] of Object.entries(node.inputs))
			if (typeof value === 'string' && MODEL_FILE.test(value)) models.push({ nodeId, classType: node.class_type, input, name: value });
	}
	return { nodeTypes: [...nodeTypes], models };
}

export function memberDefinitions(nodes: NodeDefinitions): MemberDefinitions {
	const lists = new Map<string, readonly string[]>();
	for (const [type, definition] of Object.entries(nodes))
		for (const input of definition.inputs)
			if (input.type.kind === 'COMBO')
				lists.set(
					listKey(type, input.name),
					input.type.choices.filter((c): c is string => typeof c === 'string')
				);
	return { nodeTypes: new Set(Object.keys(nodes)), lists };
}
