/**
 * What tells queued runs of one workflow apart: the widget values that differ between them (most
 * often the seed). Pure; the queue page shows them beside each entry's title.
 */
import type { ApiPrompt } from '../protocol/workflow-api';
import { isLink } from './workflow-check';

export interface Difference {
	/** The input's name, in words ("seed", "text"). */
	label: string;
	/** The value, short: long text is cut at a word. */
	value: string;
}

const SHOWN = 3;
const VALUE_MAX = 40;

function shortText(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	if (text.length <= VALUE_MAX) return text;
	const cut = text.slice(0, VALUE_MAX);
	const space = cut.lastIndexOf(' ');
	return `${space > VALUE_MAX / 2 ? cut.slice(0, space) : cut}…`;
}

/** A widget value of one node input (links are wiring, not values). */
function valueAt(prompt: ApiPrompt, nodeId: string, input: string): unknown {
	const node = Object.hasOwn(prompt, nodeId) ? prompt[nodeId] : undefined;
	if (!node || !Object.hasOwn(node.inputs, input)) return undefined;
	const value = node.inputs[input];
	return isLink(value) ? undefined : value;
}

/**
 * For each prompt, up to three values in which it differs from another prompt in the list, seeds
 * first. Prompts of different workflows differ everywhere: only inputs every prompt has are compared.
 */
export function differingValues(prompts: ReadonlyArray<ApiPrompt | null>): Difference[][] {
	const present = prompts.filter((p): p is ApiPrompt => p !== null);
	if (present.length < 2) return prompts.map(() => []);
	const first = present[0]!;
	const keys: Array<[string, string]> = [];
	for (const [nodeId, node] of Object.entries(first)) {
		for (const input of Object.keys(node.inputs)) {
			const values = present.map((p) => valueAt(p, nodeId, input));
			if (values.some((v) => v === undefined)) continue;
			const texts = new Set(values.map((v) => JSON.stringify(v)));
			if (texts.size > 1) keys.push([nodeId, input]);
		}
	}
	keys.sort(([, a], [, b]) => Number(!/seed/i.test(a)) - Number(!/seed/i.test(b)));
	const shown = keys.slice(0, SHOWN);
	return prompts.map((p) =>
		p === null ? [] : shown.map(([nodeId, input]) => ({ label: input.replace(/_/g, ' '), value: shortText(valueAt(p, nodeId, input)) }))
	);
}
