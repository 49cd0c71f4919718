/**
 * Checking an API-format workflow, or saying exactly what is wrong: malformed JSON (with the
 * position), a node without `class_type`. The editor (UI) format is converted by
 * `workflow-ui/import-workflow.ts`, which builds on this.
 */
import { isObject, nestingDepth, nullProtoRecord, own, type Json } from '../../core/protocol/json';
import type { ApiNode, ApiPrompt } from '../protocol/workflow-api';

export type { ImportResult } from '../protocol/library';
import type { ImportResult } from '../protocol/library';

/** ComfyUI's own workflows nest a few levels; far deeper is hostile or broken, and would overflow every walk. */
export const WORKFLOW_MAX_DEPTH = 64;

export const UI_FORMAT_HINT =
	'This is a workflow in the editor (UI) format, with "nodes" and "links": it is converted with a server\'s node definitions.';

function jsonError(text: string, error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	const at = /position (\d+)/.exec(message);
	if (at) {
		const pos = Number(at[1]);
		const before = text.slice(0, pos);
		const line = before.split('\n').length;
		const column = pos - before.lastIndexOf('\n');
		return `This is not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')} at line ${line}, column ${column}.`;
	}
	return `This is not valid JSON: ${message}`;
}

export const PROTO_KEY_MESSAGE =
	'The workflow uses "__proto__" as a node id or input name. JavaScript gives that one name a special meaning, so Runboard ' +
	'cannot keep it safely: rename it in the file and import it again.';

/** Whether `__proto__` is a key anywhere in the value (walked without recursion; depth is checked first). */
function hasProtoKey(value: Json): boolean {
	const stack: Json[] = [value];
	while (stack.length) {
		const v = stack.pop()!;
		if (typeof v !== 'object' || v === null) continue;
		if (!Array.isArray(v) && Object.hasOwn(v, '__proto__')) return true;
		for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push(child);
	}
	return false;
}

/** Checks the shape of a parsed value: an object of nodes, each with `class_type` and `inputs`. */
export function toApiPrompt(value: Json): ImportResult {
	if (!isObject(value)) return { ok: false, message: 'A workflow must be a JSON object of nodes keyed by node id.' };
	if (nestingDepth(value, WORKFLOW_MAX_DEPTH) > WORKFLOW_MAX_DEPTH)
		return { ok: false, message: `The workflow nests deeper than ${WORKFLOW_MAX_DEPTH} levels: it is not a workflow Runboard can run.` };
	if (hasProtoKey(value)) return { ok: false, message: PROTO_KEY_MESSAGE };
	if (Array.isArray(own(value, 'nodes')) && Array.isArray(own(value, 'links'))) return { ok: false, message: UI_FORMAT_HINT };
	// Some tools wrap the API prompt: {"prompt": {...}} as sent to /api/prompt.
	const wrapped = own(value, 'prompt');
	if (isObject(wrapped) && !Object.hasOwn(value, 'class_type')) return toApiPrompt(wrapped);
	const entries = Object.entries(value);
	if (entries.length === 0) return { ok: false, message: 'The workflow has no nodes.' };
	// Node ids and input names are the file's own words (`constructor`, `__proto__`): no prototype to meet.
	const prompt: ApiPrompt = nullProtoRecord<ApiNode>();
	for (const [id, node] of entries) {
		const classType = isObject(node) ? own(node, 'class_type') : undefined;
		if (!isObject(node) || typeof classType !== 'string') {
			return { ok: false, message: `Node "${id}" has no "class_type": this does not look like an API-format workflow.` };
		}
		const rawInputs = own(node, 'inputs');
		const inputs: Record<string, Json> = nullProtoRecord();
		if (isObject(rawInputs)) for (const [name, v] of Object.entries(rawInputs)) inputs[name] = v;
		const rawMeta = own(node, '_meta');
		const title = isObject(rawMeta) ? own(rawMeta, 'title') : undefined;
		const apiNode: ApiNode = { class_type: classType, inputs, ...(typeof title === 'string' ? { _meta: { title } } : {}) };
		prompt[id] = apiNode;
	}
	return { ok: true, prompt, source: 'json' };
}

export function importWorkflowText(text: string): ImportResult {
	if (text.trim() === '') return { ok: false, message: 'Nothing to import: the text is empty.' };
	let value: Json;
	try {
		value = JSON.parse(text) as Json;
	} catch (error) {
		return { ok: false, message: jsonError(text, error) };
	}
	return toApiPrompt(value);
}

/** A node's title as a person knows it: `_meta.title`, else the node type's display name. */
export function nodeTitle(prompt: ApiPrompt, id: string, displayName?: string): string {
	const node = own(prompt, id);
	return node?._meta?.title || displayName || node?.class_type || id;
}
