/**
 * Node definitions read off a workflow's own values, for a service that publishes none: a v2
 * per-deployment endpoint serves only `/api/v2` (the spec names no node-definition source for it),
 * so its run form is drawn from the values the workflow already holds. What cannot be known is
 * said, not guessed at: a list of choices becomes a text field (the service checks the value at
 * submit and its 422 names the field), and no input is marked required.
 */
import { own, setOwn } from '../../core/protocol/json';
import type { ApiPrompt } from '../protocol/workflow-api';
import type { InputDefinition, InputType, NodeDefinition, NodeDefinitions } from '../protocol/object-info';
import { isLink } from './workflow-check';

/** Numbers that are fractions by nature even when the file holds a whole one (`"cfg": 8`). */
const FRACTIONAL =
	/(^|_)(cfg|denoise|strength|scale|weight|guidance|shift|ratio|sigma|sigmas|eta|start|end|percent|factor|multiplier)($|_)/;
/** Inputs that name an input file: shown as a media picker (`inputToField` makes a COMBO named `image` one). */
const FILE_INPUT = /^(image|mask)$/;
const MULTILINE = /(^|_)(text|prompt|positive|negative)($|_)/;

export const INFERRED_DESCRIPTION = 'Read from the workflow: this service does not publish its node definitions.';

function typeOf(name: string, value: unknown): InputType | null {
	if (isLink(value)) return { kind: 'link', type: '*' };
	switch (typeof value) {
		case 'boolean':
			return { kind: 'BOOLEAN' };
		case 'number':
			return Number.isInteger(value) && !FRACTIONAL.test(name) ? { kind: 'INT' } : { kind: 'FLOAT' };
		case 'string':
			return FILE_INPUT.test(name) ? { kind: 'COMBO', choices: [value] } : { kind: 'STRING' };
		default:
			return null; // lists and objects: not a value a field can edit
	}
}

function inputOf(name: string, value: unknown): InputDefinition | null {
	const type = typeOf(name, value);
	if (!type) return null;
	const multiline = type.kind === 'STRING' && (MULTILINE.test(name) || (typeof value === 'string' && value.includes('\n')));
	return { name, type, options: multiline ? { multiline: true } : {}, required: false };
}

export function definitionsFromWorkflow(prompt: ApiPrompt): NodeDefinitions {
	const nodes = Object.create(null) as NodeDefinitions;
	// Each class's outputs: as many as the highest slot any link reads from it.
	const outputCount = new Map<string, number>();
	for (const node of Object.values(prompt))
		for (const value of Object.values(node.inputs)) {
			if (!isLink(value)) continue;
			const source = own(prompt, String(value[0]));
			if (source) outputCount.set(source.class_type, Math.max(outputCount.get(source.class_type) ?? 0, value[1] + 1));
		}
	for (const node of Object.values(prompt)) {
		const existing = own(nodes, node.class_type);
		const definition: NodeDefinition = existing ?? {
			name: node.class_type,
			displayName: node.class_type,
			category: '',
			description: INFERRED_DESCRIPTION,
			inputs: [],
			outputs: Array.from({ length: outputCount.get(node.class_type) ?? 0 }, () => '*'),
			outputNames: [],
			outputNode: false,
			apiNode: false
		};
		for (const [name, value] of Object.entries(node.inputs)) {
			const input = inputOf(name, value);
			if (!input) continue;
			const at = definition.inputs.findIndex((i) => i.name === name);
			// The first value seen decides, except that a value beats a link (another node of the class wires it).
			if (at === -1) definition.inputs.push(input);
			else if (definition.inputs[at]!.type.kind === 'link' && input.type.kind !== 'link') definition.inputs[at] = input;
		}
		setOwn(nodes, node.class_type, definition);
	}
	return nodes;
}
