/**
 * Inputs of several runs side by side: each run's inputs flattened to labelled short texts, and the
 * labels whose values differ between the runs (to highlight). Pure: no DOM.
 */
import type { Json } from '../../core/protocol/json';

export type FlatInputs = Map<string, string>;

const MAX_DEPTH = 4;
const MAX_TEXT = 240;

const short = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/** A model request body as `label → text`: nested objects are dotted, lists of scalars joined. */
export function flattenBody(body: Json): FlatInputs {
	const out: FlatInputs = new Map();
	const visit = (value: Json, path: string[], depth: number): void => {
		const label = path.join('.') || 'input';
		if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) {
			out.set(label, short(typeof value === 'string' ? value : JSON.stringify(value)));
		} else if (Array.isArray(value)) {
			if (value.every((v) => v === null || typeof v !== 'object')) out.set(label, short(value.map((v) => String(v)).join(', ')));
			else value.forEach((v, i) => visit(v, [...path, String(i)], depth + 1));
		} else for (const [k, v] of Object.entries(value)) visit(v, [...path, k], depth + 1);
	};
	visit(body, [], 0);
	return out;
}

/** A workflow prompt (API format) as `node title · input → text`, links between nodes left out. */
export function flattenPrompt(
	prompt: Record<string, { class_type?: string; inputs?: Record<string, unknown>; _meta?: { title?: string } }>
): FlatInputs {
	const out: FlatInputs = new Map();
	for (const [id, node] of Object.entries(prompt)) {
		const title = node._meta?.title ?? node.class_type ?? `node ${id}`;
		for (const [name, value] of Object.entries(node.inputs ?? {})) {
			if (Array.isArray(value)) continue; // a link to another node's output
			out.set(`${title} · ${name}`, short(typeof value === 'string' ? value : JSON.stringify(value)));
		}
	}
	return out;
}

/** The labels that any run lacks or sets to another value, in the order first seen. */
export function differingLabels(runs: readonly FlatInputs[]): Set<string> {
	const labels = new Set(runs.flatMap((r) => [...r.keys()]));
	const differing = new Set<string>();
	for (const label of labels) {
		const values = new Set(runs.map((r) => r.get(label)));
		if (values.size > 1) differing.add(label);
	}
	return differing;
}
