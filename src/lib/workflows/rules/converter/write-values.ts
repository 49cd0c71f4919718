/**
 * The form's values written back into the editor (UI) format, so an exported file opens in
 * ComfyUI's editor with them and converts again to the same prompt. Top-level nodes, and the
 * nodes of a subgraph used once (a definition used more often is shared, so the form shows its
 * fields read-only); a PrimitiveNode takes the value of the first widget it feeds.
 */
import type { NodeDefinitions } from '../../protocol/object-info';
import { isObject, type Json, type JsonObject } from '../../../core/protocol/json';
import type { ApiPrompt } from '../../protocol/workflow-api';
import { widgetLayout } from './widgets';

const isLink = (v: unknown): boolean => Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'number';

function own(prompt: ApiPrompt, id: string) {
	return Object.hasOwn(prompt, id) ? prompt[id] : undefined;
}

/** `[id, origin, originSlot, target, targetSlot]` of a link in either serialisation. */
function linkEnds(link: Json): { id: string; target: string; slot: number } | undefined {
	if (Array.isArray(link) && link.length >= 5) return { id: String(link[0]), target: String(link[3]), slot: Number(link[4]) };
	if (isObject(link)) return { id: String(link['id']), target: String(link['target_id']), slot: Number(link['target_slot']) };
	return undefined;
}

export function writeWidgetValues(ui: JsonObject, prompt: ApiPrompt, definitions: NodeDefinitions): JsonObject {
	const out = structuredClone(ui);
	const nodes = Array.isArray(out['nodes']) ? out['nodes'].filter(isObject) : [];
	const byId = new Map(nodes.map((n) => [String(n['id']), n]));
	const links = new Map<string, { target: string; slot: number }>();
	for (const raw of Array.isArray(out['links']) ? out['links'] : []) {
		const ends = linkEnds(raw);
		if (ends) links.set(ends.id, ends);
	}
	const subgraphs = new Map<string, JsonObject>();
	const defs = isObject(out['definitions']) && Array.isArray(out['definitions']['subgraphs']) ? out['definitions']['subgraphs'] : [];
	for (const def of defs) if (isObject(def)) subgraphs.set(String(def['id']), def);
	const uses = new Map<string, number>();
	for (const node of nodes)
		if (subgraphs.has(String(node['type']))) uses.set(String(node['type']), (uses.get(String(node['type'])) ?? 0) + 1);
	for (const node of nodes) {
		const id = String(node['id']);
		const type = typeof node['type'] === 'string' ? node['type'] : '';
		if (type === 'PrimitiveNode') {
			writePrimitive(node, links, byId, prompt);
			continue;
		}
		const subgraph = subgraphs.get(type);
		// A subgraph's inner values are shared by its instances: written only when it is used once.
		if (subgraph) {
			if (uses.get(type) !== 1) continue;
			const inner = Array.isArray(subgraph['nodes']) ? subgraph['nodes'].filter(isObject) : [];
			for (const n of inner) writeNode(n, own(prompt, `${id}:${String(n['id'])}`), definitions);
			continue;
		}
		writeNode(node, own(prompt, id), definitions);
	}
	return out;
}

function writeNode(node: JsonObject, apiNode: ApiPrompt[string] | undefined, definitions: NodeDefinitions): void {
	const type = typeof node['type'] === 'string' ? node['type'] : '';
	const definition = Object.hasOwn(definitions, type) ? definitions[type] : undefined;
	if (!apiNode || !definition || apiNode.class_type !== type) return;
	const layout = widgetLayout(definition);
	const stored = node['widgets_values'];
	if (isObject(stored)) {
		for (const slot of layout) {
			const v = apiNode.inputs[slot.input.name];
			if (v !== undefined && !isLink(v)) stored[slot.input.name] = v as Json;
		}
		return;
	}
	if (!Array.isArray(stored)) return;
	const withExtras = layout.reduce((n, s) => n + 1 + s.extras, 0);
	const valuesOnly = stored.length === layout.length && stored.length !== withExtras;
	let position = 0;
	for (const slot of layout) {
		const v = apiNode.inputs[slot.input.name];
		if (v !== undefined && !isLink(v) && position < stored.length) stored[position] = v as Json;
		position += valuesOnly ? 1 : 1 + slot.extras;
	}
}

function writePrimitive(
	node: JsonObject,
	links: Map<string, { target: string; slot: number }>,
	byId: Map<string, JsonObject>,
	prompt: ApiPrompt
): void {
	const outputs = Array.isArray(node['outputs']) ? node['outputs'] : [];
	const first = isObject(outputs[0]) && Array.isArray(outputs[0]['links']) ? outputs[0]['links'] : [];
	for (const linkId of first) {
		const link = links.get(String(linkId));
		const target = link ? byId.get(link.target) : undefined;
		const inputs = target && Array.isArray(target['inputs']) ? target['inputs'] : [];
		const input = link ? inputs[link.slot] : undefined;
		if (!link || !isObject(input)) continue;
		const widget = isObject(input['widget']) && typeof input['widget']['name'] === 'string' ? input['widget']['name'] : input['name'];
		const v = typeof widget === 'string' ? own(prompt, link.target)?.inputs[widget] : undefined;
		if (v === undefined || isLink(v) || !Array.isArray(node['widgets_values'])) continue;
		node['widgets_values'][0] = v as Json;
		return;
	}
}
