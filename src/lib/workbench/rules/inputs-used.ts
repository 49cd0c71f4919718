/**
 * "Inputs used" on a run page: what a person changed and cares about first (the prompt, input
 * images, size, steps, seed), then everything else, folded. Both parts keep the form's order (a
 * model's schema order, a workflow's node order), never the order the request happened to carry.
 * Pure: no DOM.
 */
import type { Json } from '../../core/protocol/json';
import type { ApiPrompt } from '../../workflows';

export interface InputUsed {
	/** Unique within a run: the field name, or `node id.input` for a workflow. */
	key: string;
	label: string;
	text: string;
	/** A picture to show for an input image (an http(s) or data: image address). */
	image?: string;
}

export interface InputsUsed {
	first: InputUsed[];
	rest: InputUsed[];
}

/** One form field as the page knows it: its name at the top of the body, its label, whether it takes media. */
export interface FormField {
	name: string;
	label: string;
	media?: boolean;
}

const TEXT_MAX = 600;
const CARED_ABOUT = /prompt|^text$|^query$|^question$|^message$|image|mask|^size$|width|height|aspect|resolution|steps|seed/i;

const short = (text: string) => (text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text);
const asText = (value: unknown) => short(typeof value === 'string' ? value : JSON.stringify(value));
const looksLikeImage = (value: unknown): value is string =>
	typeof value === 'string' && (/^data:image\//.test(value) || /^https?:\/\/\S+\.(png|jpe?g|webp|gif|avif)(\?\S*)?$/i.test(value));

function split(items: InputUsed[], name: (item: InputUsed) => string): InputsUsed {
	const first = items.filter((i) => CARED_ABOUT.test(name(i)));
	return { first, rest: items.filter((i) => !first.includes(i)) };
}

/**
 * A model request's body in the form's order; fields the form does not know (or every field,
 * when the schema is not at hand) follow in the body's order.
 */
export function modelInputsUsed(body: Json, form: readonly FormField[]): InputsUsed {
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		return { first: [], rest: [{ key: 'body', label: 'Input', text: asText(body) }] };
	const known = new Map(form.map((f) => [f.name, f]));
	const names = [...form.map((f) => f.name).filter((n) => Object.hasOwn(body, n)), ...Object.keys(body).filter((n) => !known.has(n))];
	const items = names.map((name): InputUsed => {
		const value = body[name];
		const field = known.get(name);
		const item: InputUsed = { key: name, label: field?.label ?? name, text: asText(value) };
		return looksLikeImage(value) && (field?.media ?? /image|mask/i.test(name)) ? { ...item, image: value } : item;
	});
	return split(items, (i) => i.key);
}

/**
 * A workflow's inputs in the form's node order, each node's inputs in its own order; links left out.
 * `nodeOrder`: the canvas reading order of a UI-format workflow's nodes, as its form lists them (without
 * it, and for ids it lacks, node id order). `pictures`: input images the page could read, by `node id.input`.
 */
export function workflowInputsUsed(
	prompt: ApiPrompt,
	pictures: ReadonlyMap<string, string> = new Map(),
	nodeOrder: readonly string[] = []
): InputsUsed {
	const byId = Object.keys(prompt).sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
	const placed = nodeOrder.filter((id) => Object.hasOwn(prompt, id));
	const ids = [...placed, ...byId.filter((id) => !placed.includes(id))];
	const items: InputUsed[] = [];
	for (const id of ids) {
		const node = prompt[id];
		if (!node || typeof node.inputs !== 'object' || node.inputs === null) continue;
		const title = node._meta?.title ?? node.class_type ?? `node ${id}`;
		for (const [name, value] of Object.entries(node.inputs)) {
			if (Array.isArray(value)) continue; // a link to another node's output
			const key = `${id}.${name}`;
			const picture = pictures.get(key);
			items.push({ key, label: `${title} · ${name}`, text: asText(value), ...(picture ? { image: picture } : {}) });
		}
	}
	return split(items, (i) => i.key.slice(i.key.indexOf('.') + 1));
}
