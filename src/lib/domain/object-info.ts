/**
 * `GET /api/object_info` parsed once into typed node definitions. Each input is `[TYPE, options]`
 * where TYPE is a primitive name (INT, FLOAT, STRING, BOOLEAN, COMBO), a list of choices (the older
 * combo form), or a link type (IMAGE, LATENT, MODEL, ...).
 */
import { isObject, type Json, type JsonObject } from '../wire/json';

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
}

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
	else if (head === 'COMBO') type = { kind: 'COMBO', choices: Array.isArray(options['options']) ? choicesOf(options['options']) : [] };
	else if (typeof head === 'string' && PRIMITIVES.has(head)) type = { kind: head as 'INT' | 'FLOAT' | 'STRING' | 'BOOLEAN' };
	else if (typeof head === 'string') type = { kind: 'link', type: head };
	else return undefined;
	return { name, type, options, required };
}

function strings(value: Json | undefined): string[] {
	return Array.isArray(value) ? value.map((v) => String(v)) : [];
}

export type ParseObjectInfoResult = { ok: true; nodes: NodeDefinitions } | { ok: false; message: string };

export function parseObjectInfo(value: Json): ParseObjectInfoResult {
	if (!isObject(value)) return { ok: false, message: 'The node definitions (object_info) are not a JSON object.' };
	// Keyed by names from the server: a node type called `__proto__` or `constructor` must be a plain entry.
	const nodes: NodeDefinitions = Object.create(null) as NodeDefinitions;
	for (const [name, raw] of Object.entries(value)) {
		if (!isObject(raw)) continue;
		const input = isObject(raw['input']) ? raw['input'] : {};
		const inputs: InputDefinition[] = [];
		for (const [group, required] of [
			['required', true],
			['optional', false]
		] as const) {
			const specs = input[group];
			if (!isObject(specs)) continue;
			for (const [inputName, spec] of Object.entries(specs)) {
				const parsed = parseInputSpec(inputName, spec, required);
				if (parsed) inputs.push(parsed);
			}
		}
		nodes[name] = {
			name,
			displayName: typeof raw['display_name'] === 'string' && raw['display_name'] ? raw['display_name'] : name,
			category: typeof raw['category'] === 'string' ? raw['category'] : '',
			description: typeof raw['description'] === 'string' ? raw['description'] : '',
			inputs,
			outputs: strings(raw['output']),
			outputNames: strings(raw['output_name']),
			outputNode: raw['output_node'] === true,
			apiNode: raw['api_node'] === true
		};
	}
	return { ok: true, nodes };
}
