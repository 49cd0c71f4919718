/**
 * UI-format workflow + the server's node definitions → the API-format prompt the ComfyUI editor
 * would send for it (its `graphToPrompt`, frontend 1.2x; docs/ARCHITECTURE.md says which parts):
 * virtual nodes (Reroute, PrimitiveNode, Note, MarkdownNote, subgraph and group node instances)
 * are resolved away, muted nodes are left out with the inputs that linked to them, bypassed nodes
 * pass an input through, and widget values are read by the definition's widget layout.
 */
import type { InputDefinition, NodeDefinition, NodeDefinitions } from '../../protocol/object-info';
import type { Json } from '../../../core/protocol/json';
import type { ApiNode, ApiPrompt } from '../../protocol/workflow-api';
import { ConvertFailure, expandWorkflow, type ExecNode } from './subgraphs';
import { MODE_BYPASS, MODE_MUTED, SUBGRAPH_INPUT_ID, parseUiWorkflow, type ModelRef, type UiWorkflow } from './ui-format';
import { widgetValues } from './widgets';
import { isObject } from '../../../core/protocol/json';
import { missingNodeTypeCure } from '../missing-node-words';

export interface ConvertMessage {
	kind: string;
	message: string;
	nodeId?: string;
}

export type { Missing, MissingModel, MissingNodeType } from '../../protocol/library';
import type { Missing, MissingModel, MissingNodeType } from '../../protocol/library';

export type ConvertResult =
	| { ok: true; prompt: ApiPrompt; warnings: ConvertMessage[]; missing: Missing }
	| {
			ok: false;
			errors: ConvertMessage[];
			warnings: ConvertMessage[];
			missing: Missing;
			/** When only node types are missing: the prompt as far as this server knows it (those nodes keep their links, not their values), so the workflow can be kept. */
			partial?: ApiPrompt;
	  };

/** Nodes that live only in the editor. */
const VIRTUAL_TYPES = new Set(['Reroute', 'PrimitiveNode', 'Note', 'MarkdownNote']);
const MODEL_FILE = /\.(safetensors|sft|ckpt|pt|pt2|pth|bin|gguf|onnx|pkl)$/i;

type Resolved = { originId: string; originSlot: number } | { widget: Json };

function definitionOf(definitions: NodeDefinitions, type: string): NodeDefinition | undefined {
	return Object.hasOwn(definitions, type) ? definitions[type] : undefined;
}

function isVirtual(exec: ExecNode): boolean {
	return exec.subgraph !== undefined || VIRTUAL_TYPES.has(exec.node.type);
}

/** LiteGraph's `isValidConnection`: `*` and '' match anything; comma lists match if they share a type. */
export function typesConnect(a: string, b: string): boolean {
	if (a === '' || a === '*' || b === '' || b === '*' || a === b) return true;
	const x = a.toLowerCase();
	const y = b.toLowerCase();
	if (!x.includes(',') && !y.includes(',')) return x === y;
	const ys = y.split(',');
	return x.split(',').some((t) => ys.includes(t));
}

/** The input a bypassed node passes to output `slot`, by the editor's rule, or -1. */
export function bypassInput(exec: ExecNode, slot: number, type: string): number {
	const inputs = exec.node.inputs;
	if (type === '*' || type === '') return inputs.length > slot ? slot : inputs.length > 0 ? 0 : -1;
	const outputType = exec.node.outputs[slot]?.type ?? '*';
	const same = inputs[slot];
	if (same && typesConnect(same.type, outputType) && typesConnect(same.type, type)) return slot;
	const exact = inputs.findIndex((i) => i.type === type);
	if (exact !== -1) return exact;
	return inputs.findIndex((i) => typesConnect(i.type, outputType) && typesConnect(i.type, type));
}

class Converter {
	readonly warnings: ConvertMessage[] = [];
	readonly missingModels: Array<Omit<MissingModel, 'url' | 'directory'>> = [];
	private readonly overrides = new Map<string, Map<string, Json>>();

	constructor(
		private readonly nodes: Map<string, ExecNode>,
		private readonly definitions: NodeDefinitions,
		/** The ids that will be sent: a link from any other node is dropped, as the editor drops it. */
		private readonly emitted: Set<string>
	) {}

	warn(kind: string, message: string, nodeId?: string): void {
		this.warnings.push({ kind, message, ...(nodeId !== undefined ? { nodeId } : {}) });
	}

	title(exec: ExecNode): string {
		return exec.node.title ?? definitionOf(this.definitions, exec.node.type)?.displayName ?? exec.node.type;
	}

	/** What a PrimitiveNode does before a prompt is made: its value into every widget it feeds. */
	applyPrimitives(): void {
		for (const exec of this.nodes.values()) {
			if (exec.node.type !== 'PrimitiveNode') continue;
			const stored = exec.node.widgetsValues;
			const value = Array.isArray(stored) ? stored[0] : stored instanceof Map ? stored.values().next().value : undefined;
			if (value === undefined) continue;
			const queue = [...(exec.node.outputs[0]?.links ?? [])].map((l) => ({ link: l, graphOf: exec }));
			const seen = new Set<string>();
			while (queue.length > 0) {
				const { link: linkId, graphOf } = queue.pop()!;
				const link = graphOf.graph.links.get(linkId);
				const key = `${graphOf.prefix}${linkId}`;
				if (!link || seen.has(key)) continue;
				seen.add(key);
				const target = this.nodes.get(graphOf.prefix + link.targetId);
				const input = target?.node.inputs[link.targetSlot];
				if (!target || !input) continue;
				if (target.node.type === 'Reroute') {
					for (const next of target.node.outputs[0]?.links ?? []) queue.push({ link: next, graphOf: target });
				} else if (target.subgraph) {
					target.promoted ??= new Map();
					target.promoted.set(link.targetSlot, value);
				} else if (input.widgetName !== undefined) {
					// The editor sets the widget the input stands for; an input without one is skipped.
					let values = this.overrides.get(target.id);
					if (!values) this.overrides.set(target.id, (values = new Map()));
					values.set(input.widgetName, value);
				}
			}
		}
	}

	/**
	 * Follows input `slot` of `start` back to the output that feeds it, through reroutes, bypassed
	 * nodes and subgraph boundaries: the editor's `resolveInput`/`resolveOutput`, as a loop so a long
	 * chain cannot overflow the stack.
	 */
	resolve(start: ExecNode, startSlot: number): Resolved | undefined {
		// Most inputs resolve in a step or two; the loop guard is built only for longer walks.
		let visited: Set<string> | undefined;
		let steps = 0;
		let exec = start;
		let slot = startSlot;
		let type: string | undefined;
		let op: 'in' | 'out' = 'in';
		for (;;) {
			if (++steps > 16) {
				visited ??= new Set();
				const key = `${exec.id}[${op}]${slot}`;
				if (visited.has(key)) {
					throw new ConvertFailure('link-cycle', `Links loop back on themselves at node ${exec.id} ("${this.title(exec)}").`);
				}
				visited.add(key);
			}
			if (op === 'in') {
				const input = exec.node.inputs[slot];
				if (!input || input.link === null) return undefined;
				const link = exec.graph.links.get(input.link);
				if (!link) {
					this.warn(
						'dangling-link',
						`Node ${exec.id} ("${this.title(exec)}"): input "${input.name}" names link ${input.link}, which the file does not have; left unconnected.`,
						exec.id
					);
					return undefined;
				}
				type ??= input.type;
				const parent = exec.parent;
				if (parent && link.originId === SUBGRAPH_INPUT_ID) {
					// The instance's input for this subgraph input, by name: an instance may list only some of them.
					const name = parent.subgraph?.inputs[link.originSlot]?.name;
					const byName = name === undefined ? -1 : parent.node.inputs.findIndex((i) => i.name === name);
					// Else by position, where the two lists line up (a group node's are built so).
					const aligned = parent.node.inputs.length === (parent.subgraph?.inputs.length ?? -1);
					const outerSlot = byName !== -1 ? byName : name === undefined || aligned ? link.originSlot : -1;
					const outer = outerSlot === -1 ? undefined : parent.node.inputs[outerSlot];
					if (!outer || outer.link === null) {
						const promoted = (outer ? parent.promoted?.get(outerSlot) : undefined) ?? proxiedValue(parent, link.originSlot);
						return promoted === undefined ? undefined : { widget: promoted };
					}
					exec = parent;
					slot = outerSlot;
					type = undefined;
					continue;
				}
				const origin = this.nodes.get(exec.prefix + link.originId);
				if (!origin) {
					this.warn(
						'dangling-link',
						`Node ${exec.id} ("${this.title(exec)}"): input "${input.name}" is linked from node ${link.originId}, which the file does not have; left unconnected.`,
						exec.id
					);
					return undefined;
				}
				exec = origin;
				slot = link.originSlot;
				op = 'out';
				continue;
			}
			// op === 'out'
			const wanted = type ?? '*';
			if (exec.mode === MODE_BYPASS) {
				const through = bypassInput(exec, slot, wanted);
				if (through === -1) return undefined;
				slot = through;
				type = undefined;
				op = 'in';
				continue;
			}
			if (exec.subgraph) {
				const output = exec.subgraph.outputs[slot];
				const innerLink = output?.linkIds[0] !== undefined ? exec.subgraph.links.get(output.linkIds[0]) : undefined;
				if (!innerLink) return undefined;
				if (innerLink.originId === SUBGRAPH_INPUT_ID) {
					// An output wired straight to an input of the same subgraph.
					slot = innerLink.originSlot;
					type = undefined;
					op = 'in';
					continue;
				}
				const inner = this.nodes.get(`${exec.id}:${innerLink.originId}`);
				if (!inner) return undefined;
				exec = inner;
				slot = innerLink.originSlot;
				continue;
			}
			if (isVirtual(exec)) {
				if (exec.node.inputs[slot]) {
					op = 'in';
					continue;
				}
				return undefined;
			}
			return { originId: exec.id, originSlot: slot };
		}
	}

	nodeToApi(exec: ExecNode, definition: NodeDefinition): ApiNode {
		const inputs: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
		const read = widgetValues(definition, exec.node.widgetsValues);
		if (read.mismatch) {
			this.warn(
				'widget-count',
				`Node ${exec.id} ("${this.title(exec)}", ${exec.node.type}) has ${read.mismatch.stored} widget values where this server's definition has ${read.mismatch.expected}; they were assigned by position. Check its settings.`,
				exec.id
			);
		}
		const override = this.overrides.get(exec.id);
		for (const [name, stored] of read.values) {
			const value = override?.has(name) ? override.get(name)! : stored;
			inputs[name] = Array.isArray(value) ? { __value__: value } : value;
		}
		exec.node.inputs.forEach((input, slot) => {
			const resolved = this.resolve(exec, slot);
			if (!resolved) return;
			if ('widget' in resolved) {
				inputs[input.name] = Array.isArray(resolved.widget) ? { __value__: resolved.widget } : resolved.widget;
				return;
			}
			if (this.emitted.has(resolved.originId)) inputs[input.name] = [resolved.originId, resolved.originSlot];
			else delete inputs[input.name];
		});
		for (const input of definition.inputs) {
			const value = inputs[input.name];
			if (input.type.kind === 'COMBO' && typeof value === 'string' && MODEL_FILE.test(value) && !choiceSet(input).has(value)) {
				this.missingModels.push({ name: value, nodeId: exec.id, title: this.title(exec), input: input.name });
			}
		}
		return { inputs, class_type: exec.node.type, _meta: { title: this.title(exec) } };
	}
}

/**
 * A subgraph input the instance shows as a widget of its own, with no input slot: the editor lists it
 * in `properties.proxyWidgets` as `["-1", input name]`, and keeps its value in the instance's
 * `widgets_values` at the same position (null when the value lives in the inner node).
 */
function proxiedValue(instance: ExecNode, subgraphSlot: number): Json | undefined {
	const name = instance.subgraph?.inputs[subgraphSlot]?.name;
	const proxies = instance.node.proxyWidgets;
	const stored = instance.node.widgetsValues;
	if (name === undefined || !proxies || !Array.isArray(stored)) return undefined;
	const at = proxies.findIndex(([node, widget]) => node === '-1' && widget === name);
	const value = at === -1 ? undefined : stored[at];
	return value === null ? undefined : value;
}

const choiceSets = new WeakMap<InputDefinition, Set<string | number>>();

function choiceSet(input: InputDefinition): Set<string | number> {
	let set = choiceSets.get(input);
	if (!set) choiceSets.set(input, (set = new Set(input.type.kind === 'COMBO' ? input.type.choices : [])));
	return set;
}

function withDownloads(missing: Converter['missingModels'], refs: ModelRef[]): MissingModel[] {
	if (missing.length === 0) return [];
	const byName = new Map<string, ModelRef>();
	for (const ref of refs) if (!byName.has(ref.name)) byName.set(ref.name, ref);
	return missing.map((m) => {
		const ref = byName.get(m.name) ?? byName.get(m.name.split(/[\\/]/).pop() ?? m.name);
		return { ...m, ...(ref?.url ? { url: ref.url } : {}), ...(ref?.directory ? { directory: ref.directory } : {}) };
	});
}

export function missingNodeTypesMessage(types: MissingNodeType[]): string {
	const lines = types.map((t) => {
		const where = t.nodes.map((n) => `#${n.id} "${n.title}"`).join(', ');
		const alias = t.searchName ? ` (also known as ${t.searchName})` : '';
		return `- ${t.type}${alias}, ${missingNodeTypeCure(t)}; used by ${where}`;
	});
	return `This server does not have ${types.length === 1 ? 'this node type' : `these ${types.length} node types`}:\n${lines.join('\n')}`;
}

/** A node whose type the server lacks, kept with its links only: its values need the definition to be named. */
function unknownNodeToApi(exec: ExecNode, converter: Converter, emitted: Set<string>): ApiNode {
	const inputs: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
	exec.node.inputs.forEach((input, slot) => {
		const resolved = converter.resolve(exec, slot);
		if (resolved && 'originId' in resolved && emitted.has(resolved.originId)) inputs[input.name] = [resolved.originId, resolved.originSlot];
	});
	return { inputs, class_type: exec.node.type, _meta: { title: exec.node.title ?? exec.node.type } };
}

/** Converts a parsed UI-format workflow; never throws on any input. */
export function convertParsedUiWorkflow(workflow: UiWorkflow, definitions: NodeDefinitions): ConvertResult {
	const noneMissing: Missing = { nodeTypes: [], models: [] };
	let expansion;
	try {
		expansion = expandWorkflow(workflow, definitions);
	} catch (error) {
		if (error instanceof ConvertFailure)
			return { ok: false, errors: [{ kind: error.kind, message: error.message }], warnings: [], missing: noneMissing };
		throw error;
	}
	const emitted: Array<[ExecNode, NodeDefinition]> = [];
	const missingTypes = new Map<string, MissingNodeType>();
	const refs: ModelRef[] = [...workflow.models];
	for (const exec of expansion.nodes.values()) {
		if (exec.node.models.length > 0) refs.push(...exec.node.models);
		if (isVirtual(exec) || exec.mode === MODE_MUTED || exec.mode === MODE_BYPASS) continue;
		const definition = definitionOf(definitions, exec.node.type);
		if (definition) {
			emitted.push([exec, definition]);
			continue;
		}
		let entry = missingTypes.get(exec.node.type);
		if (!entry) {
			entry = { type: exec.node.type, nodes: [] };
			missingTypes.set(exec.node.type, entry);
		}
		if (exec.node.pack && !entry.pack) entry.pack = exec.node.pack;
		if (exec.node.packVersion && !entry.version) entry.version = exec.node.packVersion;
		if (exec.node.searchName && exec.node.searchName !== exec.node.type) entry.searchName = exec.node.searchName;
		entry.nodes.push({ id: exec.id, title: exec.node.title ?? exec.node.type });
	}
	const unknown = [...missingTypes.values()].flatMap((t) => t.nodes.map((n) => expansion.nodes.get(n.id)!));
	const emittedIds = new Set([...emitted.map(([exec]) => exec.id), ...unknown.map((exec) => exec.id)]);
	const converter = new Converter(expansion.nodes, definitions, emittedIds);
	const prompt: ApiPrompt = Object.create(null) as ApiPrompt;
	try {
		converter.applyPrimitives();
		for (const [exec, definition] of emitted) prompt[exec.id] = converter.nodeToApi(exec, definition);
		for (const exec of unknown) prompt[exec.id] = unknownNodeToApi(exec, converter, emittedIds);
	} catch (error) {
		if (error instanceof ConvertFailure)
			return { ok: false, errors: [{ kind: error.kind, message: error.message }], warnings: converter.warnings, missing: noneMissing };
		throw error;
	}
	const models = withDownloads(converter.missingModels, refs);
	if (missingTypes.size > 0) {
		const nodeTypes = [...missingTypes.values()];
		return {
			ok: false,
			errors: [{ kind: 'missing-node-types', message: missingNodeTypesMessage(nodeTypes) }],
			warnings: converter.warnings,
			missing: { nodeTypes, models },
			partial: prompt
		};
	}
	return { ok: true, prompt, warnings: converter.warnings, missing: { nodeTypes: [], models } };
}

/** Converts a UI-format workflow (already parsed JSON) to an API-format prompt. */
export function convertUiWorkflow(value: Json, definitions: NodeDefinitions): ConvertResult {
	const noneMissing: Missing = { nodeTypes: [], models: [] };
	if (!isObject(value))
		return {
			ok: false,
			errors: [{ kind: 'invalid-workflow', message: 'A workflow must be a JSON object.' }],
			warnings: [],
			missing: noneMissing
		};
	const parsed = parseUiWorkflow(value);
	if (!parsed.ok) return { ok: false, errors: [{ kind: 'invalid-workflow', message: parsed.message }], warnings: [], missing: noneMissing };
	return convertParsedUiWorkflow(parsed.workflow, definitions);
}
