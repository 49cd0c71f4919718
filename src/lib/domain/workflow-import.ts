/**
 * Checking an API-format workflow, or saying exactly what is wrong: malformed JSON (with the
 * position), a node without `class_type`. The editor (UI) format is converted by
 * `workflow-ui/import-workflow.ts`, which builds on this.
 */
import { isObject, type Json, type JsonObject } from '../wire/json';
import type { ApiNode, ApiPrompt } from '../wire/workflow-api';
import type { Missing } from '../workflow-ui/convert';

export type ImportResult =
	| {
			ok: true;
			prompt: ApiPrompt;
			source: 'json' | 'file';
			/** The editor (UI) format the prompt came from or was embedded beside, kept for titles, groups and export. */
			ui?: JsonObject;
			/** What the person should know: offline conversion, the embedded prompt preferred and why, converter warnings. */
			notes?: string[];
			/** Node packs and model files the server lacks. */
			missing?: Missing;
	  }
	| { ok: false; message: string; missing?: Missing };

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

/** Checks the shape of a parsed value: an object of nodes, each with `class_type` and `inputs`. */
export function toApiPrompt(value: Json): ImportResult {
	if (!isObject(value)) return { ok: false, message: 'A workflow must be a JSON object of nodes keyed by node id.' };
	if (Array.isArray(value['nodes']) && Array.isArray(value['links'])) return { ok: false, message: UI_FORMAT_HINT };
	// Some tools wrap the API prompt: {"prompt": {...}} as sent to /api/prompt.
	if (isObject(value['prompt']) && !('class_type' in value)) return toApiPrompt(value['prompt']);
	const entries = Object.entries(value);
	if (entries.length === 0) return { ok: false, message: 'The workflow has no nodes.' };
	const prompt: ApiPrompt = {};
	for (const [id, node] of entries) {
		if (!isObject(node) || typeof node['class_type'] !== 'string') {
			return { ok: false, message: `Node "${id}" has no "class_type": this does not look like an API-format workflow.` };
		}
		const inputs = isObject(node['inputs']) ? node['inputs'] : {};
		const meta = isObject(node['_meta']) && typeof node['_meta']['title'] === 'string' ? { title: node['_meta']['title'] } : undefined;
		const apiNode: ApiNode = { class_type: node['class_type'], inputs: { ...inputs }, ...(meta ? { _meta: meta } : {}) };
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
	const node = prompt[id];
	return node?._meta?.title || displayName || node?.class_type || id;
}
