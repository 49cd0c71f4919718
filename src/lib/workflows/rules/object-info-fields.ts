/**
 * The pure mapping from a workflow and the server's node definitions to form fields: one group
 * per node, one field per widget input (links are wiring, not fields). Values live at
 * `[nodeId, inputName]` of the workflow's inputs.
 */
import { own, setOwn } from '../../core/protocol/json';
import type { ApiPrompt } from '../protocol/workflow-api';
import type { InputDefinition, NodeDefinitions } from '../protocol/object-info';
import { isLink } from './workflow-check';
import { nodeTitle } from './workflow-import';
import { fieldId, looksLikeSeed, type Field, type FieldGroup } from '../../fields/rules/field-model';
import { floatResolution } from '../../fields/rules/float-rounding';
import { compareReadingKeys, groupOf, readingKey, type CanvasLayout } from './converter/canvas-layout';

/** An option the server set on this input itself (never an inherited member such as `constructor`). */
const opt = (o: Record<string, unknown>, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const MAIN_NAMES = /^(text|prompt|positive|negative|seed|noise_seed|width|height|image|steps)$/;

export function inputToField(nodeId: string, input: InputDefinition): Field | undefined {
	const path = [nodeId, input.name];
	const o = input.options;
	const rawTooltip = opt(o, 'tooltip');
	const tooltip = typeof rawTooltip === 'string' ? rawTooltip : undefined;
	const base = {
		id: fieldId(path),
		path,
		label: input.name.replace(/_/g, ' '),
		...(tooltip ? { description: tooltip } : {}),
		required: input.required,
		advanced: false,
		nullable: false,
		...(opt(o, 'default') !== undefined ? { default: opt(o, 'default') } : {}),
		main: MAIN_NAMES.test(input.name)
	};
	switch (input.type.kind) {
		case 'link':
			return undefined;
		case 'INT':
		case 'FLOAT': {
			const min = num(opt(o, 'min'));
			const max = num(opt(o, 'max'));
			// A seed by its name only: `control_after_generate` also marks plain values (PrimitiveInt's `value` in
			// ComfyUI 0.3.64's object_info), which are not seeds and are not called so.
			if (input.type.kind === 'INT' && looksLikeSeed(input.name)) {
				return { ...base, kind: 'seed', min: min ?? 0, max: max ?? 2 ** 53 - 1, main: true };
			}
			const step = num(opt(o, 'step')) ?? (input.type.kind === 'INT' ? 1 : undefined);
			const round = input.type.kind === 'FLOAT' ? floatResolution(step, opt(o, 'round')) : undefined;
			return {
				...base,
				kind: input.type.kind === 'INT' ? 'integer' : 'number',
				...(min !== undefined ? { min } : {}),
				...(max !== undefined ? { max } : {}),
				...(step !== undefined ? { step } : {}),
				...(round !== undefined ? { round } : {}),
				// A slider only where both bounds exist and the range is one a thumb can cover.
				slider: min !== undefined && max !== undefined && max - min <= 10_000
			};
		}
		case 'STRING':
			return { ...base, kind: opt(o, 'multiline') === true ? 'textarea' : 'text', main: base.main || opt(o, 'multiline') === true };
		case 'BOOLEAN':
			return { ...base, kind: 'boolean' };
		case 'COMBO': {
			if (opt(o, 'image_upload') === true || input.name === 'image') {
				const known = input.type.choices.map(String);
				return { ...base, kind: 'media', accept: 'image', transport: 'upload', known, mask: opt(o, 'image_upload') === true, main: true };
			}
			// A current value the server no longer offers stays visible: the select marks it "not offered".
			return { ...base, kind: 'enum', options: input.type.choices.map((c) => ({ value: c, label: String(c) })) };
		}
	}
}

/**
 * The form's node groups. With the editor's layout: titled as on the canvas, grouped by the
 * author's groups, in reading order (top to bottom, then left to right), a PrimitiveNode's targets
 * as one field; otherwise by node id.
 */
export function workflowFieldGroups(prompt: ApiPrompt, nodes: NodeDefinitions, layout?: CanvasLayout | null): FieldGroup[] {
	const groups = nodeFieldGroups(prompt, nodes);
	return layout ? arrangeByCanvas(groups, layout) : mostChangedFirst(groups);
}

/**
 * How soon a node's fields are wanted: what is asked for (a prompt, an image) first, then the seed,
 * the size, the steps, as fal's and Replicate's forms order them; the rest after, in node order.
 */
function groupRank(group: FieldGroup): number {
	const rankOf = (field: Field): number => {
		const name = String(field.path[field.path.length - 1] ?? '');
		if (((field.kind === 'textarea' || field.kind === 'text') && /^(text|prompt|positive)$/.test(name)) || field.kind === 'media') return 0;
		if (field.kind === 'seed') return 1;
		if (/^(width|height)$/.test(name)) return 2;
		if (name === 'steps') return 3;
		return 4;
	};
	return Math.min(4, ...group.fields.map(rankOf));
}

/** Without the editor's layout, node ids say nothing a person reads by: order by what is changed most (stable). */
function mostChangedFirst(groups: FieldGroup[]): FieldGroup[] {
	return groups
		.map((group, i) => ({ group, i, rank: groupRank(group) }))
		.sort((a, b) => a.rank - b.rank || a.i - b.i)
		.map((g) => g.group);
}

function arrangeByCanvas(groups: FieldGroup[], layout: CanvasLayout): FieldGroup[] {
	const hidden = new Set(layout.primitives.flatMap((p) => p.fields.slice(1)));
	const primitiveOf = new Map(layout.primitives.map((p) => [p.fields[0]!, p]));
	const keyed = groups.map((group) => {
		const node = layout.nodes.get(group.id.split(':')[0]!);
		const canvasGroup = node ? groupOf(layout, node) : undefined;
		const instance = group.id.includes(':') ? layout.subgraphInstances.get(group.id.split(':')[0]!) : undefined;
		const shared =
			instance && instance.uses > 1
				? `Inside the subgraph "${instance.name}", used ${instance.uses} times in this workflow: its values are shared, so change them in ComfyUI's editor.`
				: undefined;
		const fields = group.fields
			.filter((f) => !hidden.has(f.id))
			.map((f) => {
				const p = primitiveOf.get(f.id);
				const one = p && p.fields.length > 1 ? { ...f, label: `${p.title} (sets ${p.fields.length} inputs)` } : f;
				return shared ? { ...one, readOnly: shared } : one;
			});
		const arranged: FieldGroup = {
			...group,
			...(node?.title && !group.id.includes(':') ? { title: node.title } : {}),
			...(canvasGroup ? { section: { title: canvasGroup.title, ...(canvasGroup.color ? { color: canvasGroup.color } : {}) } } : {}),
			...(node?.collapsed ? { collapsed: true } : {}),
			fields
		};
		return { arranged, key: readingKey(layout, group.id) };
	});
	keyed.sort((a, b) => compareReadingKeys(a.key, b.key));
	return keyed.map((k) => k.arranged).filter((g) => g.fields.length > 0);
}

function nodeFieldGroups(prompt: ApiPrompt, nodes: NodeDefinitions): FieldGroup[] {
	const groups: FieldGroup[] = [];
	const ids = Object.keys(prompt).sort((a, b) => {
		const [na, nb] = [Number(a), Number(b)];
		return Number.isFinite(na) && Number.isFinite(nb) ? na - nb : a.localeCompare(b);
	});
	for (const id of ids) {
		const node = own(prompt, id)!;
		const definition = own(nodes, node.class_type);
		if (!definition) continue;
		const fields: Field[] = [];
		for (const input of definition.inputs) {
			if (definition.problem) break; // shown as broken, with the reason, by the workflow check
			const value = own(node.inputs, input.name);
			if (isLink(value)) continue; // a widget converted to an input is wired, not edited
			const field = inputToField(id, input);
			if (field) fields.push(field);
		}
		if (fields.length === 0 && !definition.problem) continue;
		groups.push({
			id,
			title: nodeTitle(prompt, id, definition.displayName),
			subtitle: `#${id} · ${definition.displayName}`,
			...(definition.apiNode ? { partner: true } : {}),
			fields
		});
	}
	return groups;
}

/** The workflow's inputs as one value tree `{nodeId: {input: value}}`, the form's model. */
export function workflowValues(prompt: ApiPrompt): Record<string, Record<string, unknown>> {
	return Object.fromEntries(Object.entries(prompt).map(([id, node]) => [id, { ...node.inputs }]));
}

/** Writes form values back into a copy of the workflow. */
export function applyValues(prompt: ApiPrompt, values: Record<string, Record<string, unknown>>): ApiPrompt {
	const next: ApiPrompt = {};
	for (const [id, node] of Object.entries(prompt)) setOwn(next, id, { ...node, inputs: { ...node.inputs, ...(own(values, id) ?? {}) } });
	return next;
}
