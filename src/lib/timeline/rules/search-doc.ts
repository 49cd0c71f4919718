/**
 * A run as the text search reads it: one lower-cased string per run, a line per thing that can be
 * searched, each line led by a one-character field code (a control character no query can contain,
 * so a word never matches a field's name). Kept beside the run's timeline entry (`sx:<id>`) and
 * written with it, so search never reads the full records (decision 0061).
 */
import type { Json } from '../../core/protocol/json';
import type { ModelRun } from '../../core/protocol/model-run';
import type { AnyRun } from '../../core/protocol/run-kernel';
import type { ApiPrompt, WorkflowRun } from '../../core/protocol/workflow-run';

/** The fields a query can name (`seed:42`, `lora:detail`), each with its line code. */
export const SEARCH_FIELDS = {
	prompt: '\u0001',
	negative: '\u0002',
	model: '\u0003',
	lora: '\u0004',
	sampler: '\u0005',
	seed: '\u0006',
	input: '\u0007',
	output: '\u000e',
	status: '\u000f',
	date: '\u0010',
	title: '\u0011',
	kind: '\u0012',
	/** The profile's id; the worker also matches a term against profile names (they can change). */
	profile: '\u0013'
} as const;
export type SearchField = keyof typeof SEARCH_FIELDS;

/** A line's code to its field, for "matched in …". */
export const FIELD_OF_CODE: ReadonlyMap<string, SearchField> = new Map(
	Object.entries(SEARCH_FIELDS).map(([field, code]) => [code, field as SearchField])
);

/** One prompt is kept whole up to this; a pasted essay is cut, and so is any single value. */
const VALUE_MAX = 1000;
/** Nested model request bodies are read this deep: enough for a LoRA list's `path`. */
const DEPTH_MAX = 4;
const VALUES_MAX = 200;

/** Any control character (our line codes and newlines among them) becomes a space. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]+/g;

/** Control characters and every white space but the plain space (JavaScript's `\s`): one character class, a fast scan. */
// eslint-disable-next-line no-control-regex
const UNCLEAN_CHAR = /[\u0000-\u001f\u007f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

export function normalizeSearchText(text: string): string {
	// Most values need nothing but lower case: checked first, as every save makes its run's text.
	if (!UNCLEAN_CHAR.test(text) && !text.includes('  ') && text[0] !== ' ' && !text.endsWith(' ')) return text.toLowerCase();
	return text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
}

class DocLines {
	private readonly lines: string[] = [];
	private readonly seen = new Set<string>();

	add(field: SearchField, value: unknown): void {
		if (this.lines.length >= VALUES_MAX) return;
		const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
		if (text === null) return;
		const clean = normalizeSearchText(text.length > VALUE_MAX ? text.slice(0, VALUE_MAX) : text);
		if (clean === '') return;
		const line = SEARCH_FIELDS[field] + clean;
		if (this.seen.has(line)) return;
		this.seen.add(line);
		this.lines.push(line);
	}

	/** Starts with a newline, so every line, the first too, is found as `\n<code>`. */
	text(): string {
		return `\n${this.lines.join('\n')}`;
	}
}

const MODEL_INPUT = /^(ckpt|unet|model|vae|clip|clip_vision|control_net|upscale_model|style_model|gligen)_name$|^(checkpoint|model)$/;
const LORA_INPUT = /lora/i;
const SAMPLER_INPUT = /^(sampler_name|scheduler|sampler)$/;
const SEED_INPUT = /^(noise_)?seed$/;
const PROMPT_INPUT = /^(text|prompt|positive|text_[gl])$/;

const PROMPT = 1;
const NEGATIVE = 2;
const LORA = 4;
const MODEL = 8;
const SAMPLER = 16;
const SEED = 32;
/**
 * What an input's name says it holds, as the bits above. Input names repeat from run to run
 * (`seed`, `text`, `ckpt_name`), and testing six patterns per input was most of a save's text:
 * the answer is kept per name, in a map emptied when it grows past a bound.
 */
const kindOfName = new Map<string, number>();
function inputKind(name: string): number {
	let kind = kindOfName.get(name);
	if (kind !== undefined) return kind;
	kind =
		(PROMPT_INPUT.test(name) ? PROMPT : 0) |
		(/negative/i.test(name) ? NEGATIVE : 0) |
		(LORA_INPUT.test(name) ? LORA : 0) |
		(MODEL_INPUT.test(name) ? MODEL : 0) |
		(SAMPLER_INPUT.test(name) ? SAMPLER : 0) |
		(SEED_INPUT.test(name) ? SEED : 0);
	if (kindOfName.size >= 2000) kindOfName.clear();
	kindOfName.set(name, kind);
	return kind;
}

/** Node ids a sampler takes as its `negative` conditioning: their texts are the negative prompt. */
function negativeNodes(prompt: ApiPrompt): Set<string> {
	const ids = new Set<string>();
	for (const node of Object.values(prompt)) {
		const link = isObject(node) && isObject(node.inputs) && Object.hasOwn(node.inputs, 'negative') ? node.inputs['negative'] : undefined;
		if (Array.isArray(link) && typeof link[0] === 'string') ids.add(link[0]);
	}
	return ids;
}

function addWorkflowInputs(doc: DocLines, prompt: ApiPrompt): void {
	const negative = negativeNodes(prompt);
	const ids = Object.keys(prompt).sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
	for (const id of ids) {
		const node = prompt[id];
		if (!isObject(node) || !isObject(node.inputs)) continue;
		const title = isObject(node._meta) ? node._meta.title : undefined;
		const isNegative = negative.has(id) || (typeof title === 'string' && /negative/i.test(title));
		for (const [name, value] of Object.entries(node.inputs)) {
			if (typeof value === 'object' && value !== null) continue; // links and objects
			const kind = inputKind(name);
			if (typeof value === 'string' && kind & PROMPT) doc.add(isNegative ? 'negative' : 'prompt', value);
			else if (kind & NEGATIVE && typeof value === 'string') doc.add('negative', value);
			else if (kind & LORA && typeof value === 'string') doc.add('lora', value);
			else if (kind & MODEL) doc.add('model', value);
			else if (kind & SAMPLER) doc.add('sampler', value);
			else if (kind & SEED) doc.add('seed', value);
			else doc.add('input', typeof value === 'string' ? value : `${name}=${String(value)}`);
		}
	}
}

function addBodyValues(doc: DocLines, value: Json, name: string, depth: number): void {
	if (depth > DEPTH_MAX || value === null) return;
	if (Array.isArray(value)) {
		for (const item of value.slice(0, 50)) addBodyValues(doc, item, name, depth + 1);
		return;
	}
	if (typeof value === 'object') {
		for (const [key, item] of Object.entries(value)) {
			// A LoRA list's items (`{path, scale}`) stay LoRAs; a message's `content` stays a prompt.
			const inner = LORA_INPUT.test(name) ? name : key === 'content' && name === 'messages' ? 'prompt' : key;
			addBodyValues(doc, item, inner, depth + 1);
		}
		return;
	}
	if (/negative/i.test(name)) doc.add('negative', value);
	else if (PROMPT_INPUT.test(name) || name === 'question' || name === 'input') doc.add('prompt', value);
	else if (LORA_INPUT.test(name)) doc.add('lora', value);
	else if (SAMPLER_INPUT.test(name)) doc.add('sampler', value);
	else if (SEED_INPUT.test(name)) doc.add('seed', value);
	else if (/^(model|checkpoint|model_name)$/.test(name)) doc.add('model', value);
	else doc.add('input', typeof value === 'string' ? value : `${name}=${String(value)}`);
}

/**
 * Records are read loosely (a history file's model runs are listed whatever their shape): every
 * container is checked before it is walked.
 */
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const valuesOf = (value: unknown): unknown[] => (isObject(value) ? Object.values(value) : []);
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The local calendar day, `2026-11-28`, so a date typed as people write it finds the day's runs. */
export function dayOf(at: number): string {
	const d = new Date(at);
	const pad = (n: number) => String(n).padStart(2, '0');
	return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function workflowDoc(run: WorkflowRun, doc: DocLines): void {
	if (isObject(run.prompt)) addWorkflowInputs(doc, run.prompt);
	for (const seed of valuesOf(run.seeds)) doc.add('seed', seed);
	for (const output of listOf(run.outputs)) {
		if (!isObject(output)) continue;
		doc.add('output', output['kind']);
		const ref = output['ref'];
		if (isObject(ref)) doc.add('output', ref['label'] ?? ref['filename']);
	}
	if (listOf(run.texts).length > 0) doc.add('output', 'text');
	doc.add('title', run.workflowId);
}

function modelDoc(run: ModelRun, doc: DocLines): void {
	doc.add('model', run.modelId);
	addBodyValues(doc, run.body, '', 0);
	for (const seed of valuesOf(run.seeds)) doc.add('seed', seed);
	const result: unknown = run.result;
	if (!isObject(result)) return;
	for (const asset of listOf(result['assets'])) if (isObject(asset)) doc.add('output', asset['kind']);
	if (result['text'] !== undefined || result['json'] !== undefined) doc.add('output', 'text');
}

/** The run's search text. Pure: the same record always gives the same text. */
export function searchDoc(run: AnyRun): string {
	const doc = new DocLines();
	doc.add('title', run.title);
	if (run.kind === 'workflow') workflowDoc(run, doc);
	else modelDoc(run, doc);
	doc.add('status', run.status);
	doc.add('date', dayOf(run.createdAt));
	doc.add('kind', run.kind);
	doc.add('profile', run.profileId);
	return doc.text();
}

/** A short hash of a search text: a save that changes nothing searchable writes nothing. */
export function searchDocHash(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
	return h >>> 0;
}
