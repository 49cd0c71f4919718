/**
 * `GET /api/object_info` parsed once into typed node definitions. Each input is `[TYPE, options]`
 * where TYPE is a primitive name (INT, FLOAT, STRING, BOOLEAN, COMBO), a list of choices (the older
 * combo form), or a link type (IMAGE, LATENT, MODEL, ...).
 */
import { isObject, nullProtoRecord, own, type Json, type JsonObject } from '../../core/protocol/json';

export type InputType =
	{ kind: 'INT' | 'FLOAT' | 'STRING' | 'BOOLEAN' } | { kind: 'COMBO'; choices: Array<string | number> } | { kind: 'link'; type: string };

export interface InputDefinition {
	name: string;
	type: InputType;
	options: JsonObject;
	required: boolean;
}

export interface NodeDefinition {
	name: string;
	displayName: string;
	category: string;
	description: string;
	inputs: InputDefinition[];
	outputs: string[];
	outputNames: string[];
	outputNode: boolean;
	apiNode: boolean;
	/** Why this one definition could not be read; the node is shown as broken, every other node works. */
	problem?: string;
}

/** Keyed by node type, a name the server chose: a null-prototype object, read with `own()`. */
export type NodeDefinitions = Record<string, NodeDefinition>;

const PRIMITIVES = new Set(['INT', 'FLOAT', 'STRING', 'BOOLEAN']);

function choicesOf(list: Json[]): Array<string | number> {
	return list.filter((c): c is string | number => typeof c === 'string' || typeof c === 'number');
}

export function parseInputSpec(name: string, spec: Json, required: boolean): InputDefinition | undefined {
	if (!Array.isArray(spec) || spec.length === 0) return undefined;
	const [head, rawOptions] = spec;
	const options: JsonObject = isObject(rawOptions) ? rawOptions : {};
	let type: InputType;
	if (Array.isArray(head)) type = { kind: 'COMBO', choices: choicesOf(head) };
	else if (head === 'COMBO') {
		const listed = own(options, 'options');
		type = { kind: 'COMBO', choices: Array.isArray(listed) ? choicesOf(listed) : [] };
	} else if (typeof head === 'string' && PRIMITIVES.has(head)) type = { kind: head as 'INT' | 'FLOAT' | 'STRING' | 'BOOLEAN' };
	else if (typeof head === 'string') type = { kind: 'link', type: head };
	else return undefined;
	return { name, type, options, required };
}

/** A list of strings, or the reason it is not one. */
function stringList(value: Json | undefined, what: string): { list: string[]; problem?: string } {
	if (value === undefined) return { list: [] };
	if (!Array.isArray(value)) return { list: [], problem: `its ${what} is not a list` };
	const bad = value.findIndex((v) => typeof v !== 'string');
	if (bad !== -1) return { list: [], problem: `${what} ${bad} is ${JSON.stringify(value[bad]) ?? 'not a value'}, not a type name` };
	return { list: value as string[] };
}

export type ParseObjectInfoResult = { ok: true; nodes: NodeDefinitions } | { ok: false; message: string };

/** One node's definition; a malformed part makes this node broken (with the reason), never the document. */
export function parseNodeDefinition(name: string, raw: Json): NodeDefinition {
	const o: JsonObject = isObject(raw) ? raw : {};
	const problems: string[] = isObject(raw) ? [] : ['the definition is not a JSON object'];
	const rawInput = own(o, 'input');
	const input: JsonObject = isObject(rawInput) ? rawInput : {};
	const inputs: InputDefinition[] = [];
	for (const [group, required] of [
		['required', true],
		['optional', false]
	] as const) {
		const specs = own(input, group);
		if (!isObject(specs)) continue;
		for (const [inputName, spec] of Object.entries(specs)) {
			const parsed = parseInputSpec(inputName, spec, required);
			if (parsed) inputs.push(parsed);
			else if (required) problems.push(`the required input "${inputName}" has no readable type`);
		}
	}
	const outputs = stringList(own(o, 'output'), 'output type');
	if (outputs.problem) problems.push(outputs.problem);
	const outputNames = own(o, 'output_name');
	const text = (key: string): string | undefined => {
		const v = own(o, key);
		return typeof v === 'string' ? v : undefined;
	};
	return {
		name,
		displayName: text('display_name') || name,
		category: text('category') ?? '',
		description: text('description') ?? '',
		inputs,
		outputs: outputs.list,
		outputNames: Array.isArray(outputNames) ? outputNames.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) : [],
		outputNode: own(o, 'output_node') === true,
		apiNode: own(o, 'api_node') === true,
		...(problems.length ? { problem: problems.join('; ') } : {})
	};
}

export function parseObjectInfo(value: Json): ParseObjectInfoResult {
	if (!isObject(value)) return { ok: false, message: 'The node definitions (object_info) are not a JSON object.' };
	// Keyed by names from the server: a node type called `__proto__` or `constructor` must be a plain entry.
	const nodes: NodeDefinitions = nullProtoRecord();
	for (const [name, raw] of Object.entries(value)) nodes[name] = parseNodeDefinition(name, raw);
	return { ok: true, nodes };
}
