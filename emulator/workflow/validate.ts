/**
 * Validates a workflow in API format the way ComfyUI's `validate_prompt` does: the error types,
 * messages and `node_errors` layout are ComfyUI's. Outputs whose inputs validate are kept; the
 * submission fails only when no output node is left. Literal values are coerced in place
 * (INT/FLOAT/STRING/BOOLEAN), so the executor receives typed values.
 */
import type { ApiPrompt, NodeErrors, ValidationError } from '../../src/lib/workflows/protocol/workflow-api';
import type { InputSpec, NodeDefinition } from './nodes';

export type ValidationResult =
	| { ok: true; outputs: string[]; nodeErrors: NodeErrors; prompt: ApiPrompt }
	| { ok: false; error: ValidationError; nodeErrors: NodeErrors };

/** A node-specific check standing in for ComfyUI's VALIDATE_INPUTS: true, or the reason it failed. */
export type CustomValidator = (inputName: string, value: unknown) => true | string;

const LINK_IS_PRIMITIVE = new Set(['INT', 'FLOAT', 'STRING', 'BOOLEAN', 'COMBO']);

export function isLink(value: unknown): value is [string, number] {
	return Array.isArray(value);
}

function topError(type: string, message: string, details: string): ValidationResult {
	return { ok: false, error: { type, message, details, extra_info: {} }, nodeErrors: {} };
}

function comboOptions(spec: InputSpec): string[] | undefined {
	if (Array.isArray(spec[0])) return spec[0];
	if (spec[0] === 'COMBO') {
		const options = spec[1]?.['options'];
		return Array.isArray(options) ? options.map(String) : [];
	}
	return undefined;
}

type Coerced = { ok: true; value: unknown } | { ok: false; reason: string };

/** Python's int()/float()/str()/bool() as ComfyUI applies them to literal inputs. */
function coerce(type: string, value: unknown): Coerced {
	if (type === 'INT') {
		if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value: Math.trunc(value) };
		if (typeof value === 'boolean') return { ok: true, value: value ? 1 : 0 };
		if (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)) return { ok: true, value: Number(value) };
		return { ok: false, reason: `invalid literal for int() with base 10: ${JSON.stringify(value)}` };
	}
	if (type === 'FLOAT') {
		if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value };
		if (typeof value === 'boolean') return { ok: true, value: value ? 1 : 0 };
		if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return { ok: true, value: Number(value) };
		return { ok: false, reason: `could not convert ${JSON.stringify(value)} to float` };
	}
	if (type === 'STRING') {
		if (typeof value === 'string') return { ok: true, value };
		if (typeof value === 'object' && value !== null) return { ok: false, reason: 'an object is not a string' };
		return { ok: true, value: String(value) };
	}
	if (type === 'BOOLEAN') return { ok: true, value: Boolean(value) };
	return { ok: true, value };
}

interface NodeCheck {
	valid: boolean;
	errors: ValidationError[];
}

export function validatePrompt(
	raw: unknown,
	definitions: Record<string, NodeDefinition>,
	customValidators: Record<string, CustomValidator> = {}
): ValidationResult {
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
		return topError('invalid_prompt', 'Cannot execute because the prompt is not an object keyed by node id.', '');
	}
	const prompt: ApiPrompt = {};
	const outputs: string[] = [];
	for (const [id, node] of Object.entries(raw as Record<string, unknown>)) {
		if (typeof node !== 'object' || node === null || typeof (node as { class_type?: unknown }).class_type !== 'string') {
			return topError('invalid_prompt', 'Cannot execute because a node is missing the class_type property.', `Node ID '#${id}'`);
		}
		const classType = (node as { class_type: string }).class_type;
		const definition = definitions[classType];
		if (!definition) {
			return topError('invalid_prompt', `Cannot execute because node ${classType} does not exist.`, `Node ID '#${id}'`);
		}
		const inputs = (node as { inputs?: unknown }).inputs;
		const copy = typeof inputs === 'object' && inputs !== null && !Array.isArray(inputs) ? { ...(inputs as Record<string, unknown>) } : {};
		prompt[id] = {
			class_type: classType,
			inputs: copy,
			...((node as { _meta?: { title?: string } })._meta ? { _meta: (node as { _meta: { title?: string } })._meta } : {})
		};
		if (definition.output_node) outputs.push(id);
	}
	if (outputs.length === 0) return topError('prompt_no_outputs', 'Prompt has no outputs', '');

	const validated = new Map<string, NodeCheck>();

	const visiting = new Set<string>();
	const check = (id: string): NodeCheck => {
		if (visiting.has(id)) {
			// ComfyUI recurses until Python's RecursionError; we name the cycle instead.
			const cycle: NodeCheck = {
				valid: false,
				errors: [
					{
						type: 'dependency_cycle',
						message: 'Dependency cycle detected',
						details: `Node ID '#${id}' depends on its own output`,
						extra_info: {}
					}
				]
			};
			return cycle;
		}
		const done = validated.get(id);
		if (done) return done;
		visiting.add(id);
		const pending: NodeCheck = { valid: false, errors: [] };
		validated.set(id, pending);
		const node = prompt[id]!;
		const definition = definitions[node.class_type]!;
		const custom = customValidators[node.class_type];
		const errors: ValidationError[] = [];
		let valid = true;
		const specs: Array<[string, InputSpec, boolean]> = [
			...Object.entries(definition.input.required).map(([n, s]): [string, InputSpec, boolean] => [n, s, true]),
			...Object.entries(definition.input.optional ?? {}).map(([n, s]): [string, InputSpec, boolean] => [n, s, false])
		];
		for (const [name, spec, required] of specs) {
			let value = node.inputs[name];
			if (value === undefined) {
				if (required)
					errors.push({
						type: 'required_input_missing',
						message: 'Required input is missing',
						details: name,
						extra_info: { input_name: name }
					});
				continue;
			}
			const info = { input_name: name, input_config: spec };
			const typeName = Array.isArray(spec[0]) ? 'COMBO' : spec[0];
			if (isLink(value)) {
				if (value.length !== 2) {
					errors.push({
						type: 'bad_linked_input',
						message: 'Bad linked input, must be a length-2 list of [node_id, slot_index]',
						details: name,
						extra_info: { ...info, received_value: value }
					});
					continue;
				}
				const [from, slot] = value as [unknown, unknown];
				const source = typeof from === 'string' || typeof from === 'number' ? prompt[String(from)] : undefined;
				const sourceDef = source ? definitions[source.class_type] : undefined;
				if (!source || !sourceDef) {
					// ComfyUI raises KeyError here and reports it on this node.
					const inner = {
						type: 'exception_during_inner_validation',
						message: 'Exception when validating inner node',
						details: `'${String(from)}'`,
						extra_info: { ...info, exception_type: 'KeyError', exception_message: `'${String(from)}'`, linked_node: value }
					};
					return finish(id, pending, [...errors, inner]);
				}
				const received = typeof slot === 'number' && Number.isInteger(slot) ? sourceDef.output[slot] : undefined;
				if (received === undefined) {
					const inner = {
						type: 'exception_during_inner_validation',
						message: 'Exception when validating inner node',
						details: 'tuple index out of range',
						extra_info: { ...info, exception_type: 'IndexError', exception_message: 'tuple index out of range', linked_node: value }
					};
					return finish(id, pending, [...errors, inner]);
				}
				const expected = typeName;
				if (received !== expected && received !== '*' && expected !== '*' && !(expected === 'COMBO' && received === 'COMBO')) {
					errors.push({
						type: 'return_type_mismatch',
						message: 'Return type mismatch between linked nodes',
						details: `${name}, received_type(${received}) mismatch input_type(${expected})`,
						extra_info: { ...info, received_type: received, linked_node: value }
					});
					continue;
				}
				node.inputs[name] = [String(from), slot];
				const linked = check(String(from));
				if (!linked.valid) {
					valid = false;
					if (linked.errors[0]?.type === 'dependency_cycle') errors.push(linked.errors[0]);
				}
				continue;
			}
			// ComfyUI unwraps a value sent as {"__value__": ...} (how the editor sends a list widget's
			// value, since a bare list means a link) before it checks the value.
			if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__value__')) {
				value = (value as { __value__: unknown }).__value__;
				node.inputs[name] = value;
			}
			if (custom) {
				const verdict = custom(name, value);
				if (verdict === true) continue;
				errors.push({
					type: 'custom_validation_failed',
					message: 'Custom validation failed for node',
					details: `${name} - ${verdict}`,
					extra_info: { input_name: name }
				});
				continue;
			}
			// An any-typed input (`*`, e.g. PreviewAny) takes a widget value as it is, as ComfyUI does.
			if (typeName === '*') continue;
			if (!LINK_IS_PRIMITIVE.has(typeName)) {
				errors.push({
					type: 'invalid_input_type',
					message: `Failed to convert an input value to a ${typeName} value`,
					details: `${name}, ${JSON.stringify(value)}, a ${typeName} input takes a link [node_id, slot]`,
					extra_info: { ...info, received_value: value }
				});
				continue;
			}
			const coerced = coerce(typeName, value);
			if (!coerced.ok) {
				errors.push({
					type: 'invalid_input_type',
					message: `Failed to convert an input value to a ${typeName} value`,
					details: `${name}, ${JSON.stringify(value)}, ${coerced.reason}`,
					extra_info: { ...info, received_value: value, exception_message: coerced.reason }
				});
				continue;
			}
			const v = coerced.value;
			node.inputs[name] = v;
			const options = spec[1] ?? {};
			if (typeof v === 'number' && typeof options['min'] === 'number' && v < options['min']) {
				errors.push({
					type: 'value_smaller_than_min',
					message: `Value ${v} smaller than min of ${options['min']}`,
					details: name,
					extra_info: { ...info, received_value: v }
				});
				continue;
			}
			if (typeof v === 'number' && typeof options['max'] === 'number' && v > options['max']) {
				errors.push({
					type: 'value_bigger_than_max',
					message: `Value ${v} bigger than max of ${options['max']}`,
					details: name,
					extra_info: { ...info, received_value: v }
				});
				continue;
			}
			const choices = comboOptions(spec);
			if (choices && !choices.includes(String(v))) {
				errors.push({
					type: 'value_not_in_list',
					message: 'Value not in list',
					details: `${name}: '${String(v)}' not in ${choices.length > 20 ? `(list of length ${choices.length})` : JSON.stringify(choices)}`,
					extra_info: { ...info, received_value: v }
				});
				continue;
			}
		}
		return finish(id, pending, errors, valid);
	};

	const finish = (id: string, record: NodeCheck, errors: ValidationError[], valid = true): NodeCheck => {
		visiting.delete(id);
		record.errors = errors;
		record.valid = valid && errors.length === 0;
		validated.set(id, record);
		return record;
	};

	const nodeErrors: NodeErrors = {};
	const good: string[] = [];
	const failedDetails: string[] = [];
	for (const output of outputs) {
		const result = check(output);
		if (result.valid) {
			good.push(output);
			continue;
		}
		for (const [id, r] of validated) {
			if (r.valid || r.errors.length === 0) continue;
			nodeErrors[id] ??= { errors: r.errors, dependent_outputs: [], class_type: prompt[id]!.class_type };
			nodeErrors[id].dependent_outputs.push(output);
		}
		for (const e of result.errors) failedDetails.push(`${e.message}: ${e.details}`);
	}
	if (good.length === 0) {
		const details = Object.values(nodeErrors)
			.flatMap((n) => n.errors.map((e) => `${e.message}: ${e.details}`))
			.join('\n');
		return {
			ok: false,
			error: {
				type: 'prompt_outputs_failed_validation',
				message: 'Prompt outputs failed validation',
				details: details || failedDetails.join('\n'),
				extra_info: {}
			},
			nodeErrors
		};
	}
	return { ok: true, outputs: good, nodeErrors, prompt };
}

/** The nodes an execution needs, in an order where every node follows the nodes it links from. */
export function executionOrder(prompt: ApiPrompt, outputs: string[]): string[] {
	const order: string[] = [];
	const seen = new Set<string>();
	const visit = (id: string): void => {
		if (seen.has(id)) return;
		seen.add(id);
		for (const value of Object.values(prompt[id]!.inputs)) if (isLink(value)) visit(value[0]);
		order.push(id);
	};
	for (const output of outputs) visit(output);
	return order;
}
