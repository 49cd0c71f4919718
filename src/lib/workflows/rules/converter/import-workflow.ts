/**
 * What a person imports (a JSON text, or the `prompt`/`workflow` texts a ComfyUI file carries) →
 * the prompt to run, the UI-format graph kept beside it, and what the person should know: notes
 * (offline conversion, the embedded prompt preferred, converter warnings) and missing node packs
 * or model files. Pure; the worker supplies the texts and the node definitions.
 */
import type { NodeDefinitions } from '../../protocol/object-info';
import { toApiPrompt, type ImportResult } from '../workflow-import';
import { isObject, type Json, type JsonObject } from '../../../core/protocol/json';
import type { ApiPrompt } from '../../protocol/workflow-api';
import { convertUiWorkflow, type Missing } from './convert';
import { parsePythonJson } from './json-python';
import { workflowFormatOf } from './ui-format';

export interface ImportTexts {
	/** API format (ComfyUI's `prompt` metadata), or a JSON text of either format. */
	prompt?: string;
	/** UI format (ComfyUI's `workflow` metadata). */
	workflow?: string;
}

export interface ImportDefinitions {
	nodes: NodeDefinitions;
	/** Set when these are the cached copy (offline): said in the notes. */
	cachedNote?: string;
}

const NO_DEFINITIONS =
	'Converting the editor (UI) format needs the node definitions of a server: add a connection profile in Settings and connect once, then import again.';

/** Text of one node's inputs, for comparing prompts (links and values; `_meta` is left out). */
function nodeKey(prompt: ApiPrompt, id: string): string | undefined {
	const node = Object.hasOwn(prompt, id) ? prompt[id] : undefined;
	return node ? JSON.stringify([node.class_type, Object.entries(node.inputs).sort(([a], [b]) => (a < b ? -1 : 1))]) : undefined;
}

/** The first difference between two prompts, in words, or null when they run the same. */
export function promptDifference(embedded: ApiPrompt, converted: ApiPrompt): string | null {
	const ids = [...new Set([...Object.keys(embedded), ...Object.keys(converted)])].sort((a, b) =>
		a.localeCompare(b, 'en', { numeric: true })
	);
	for (const id of ids) {
		const a = Object.hasOwn(embedded, id) ? embedded[id] : undefined;
		const b = Object.hasOwn(converted, id) ? converted[id] : undefined;
		if (!a) return `node ${id} (${b!.class_type}) is in the editor graph but not in the embedded prompt`;
		if (!b) return `node ${id} (${a.class_type}) is in the embedded prompt but not in the editor graph`;
		if (nodeKey(embedded, id) === nodeKey(converted, id)) continue;
		if (a.class_type !== b.class_type)
			return `node ${id} is ${a.class_type} in the embedded prompt but ${b.class_type} in the editor graph`;
		const names = [...new Set([...Object.keys(a.inputs), ...Object.keys(b.inputs)])];
		const name = names.find((n) => JSON.stringify(a.inputs[n]) !== JSON.stringify(b.inputs[n])) ?? '?';
		return `node ${id} (${a.class_type}) input "${name}" is ${JSON.stringify(a.inputs[name]) ?? 'absent'} in the embedded prompt but ${JSON.stringify(b.inputs[name]) ?? 'absent'} in the editor graph`;
	}
	return null;
}

/** Whether `__proto__` is an own key anywhere in the value: page state and IndexedDB copies cannot keep it safely. */
function hasProtoKey(value: Json): boolean {
	const stack: Json[] = [value];
	while (stack.length > 0) {
		const v = stack.pop()!;
		if (typeof v !== 'object' || v === null) continue;
		if (!Array.isArray(v) && Object.hasOwn(v, '__proto__')) return true;
		for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push(child);
	}
	return false;
}

function parse(text: string, label: string, what: string): { ok: true; value: Json } | { ok: false; message: string } {
	const parsed = parsePythonJson(text);
	return parsed.ok ? parsed : { ok: false, message: `${label}: the ${what} is not valid JSON (${parsed.message}).` };
}

/**
 * Imports the texts of one file (or one pasted text). `label` names the file in messages
 * ("“photo.png”"). `definitions` is null when no server's node definitions are known.
 */
export function importWorkflowTexts(texts: ImportTexts, label: string, definitions: ImportDefinitions | null): ImportResult {
	let uiValue: JsonObject | undefined;
	let apiValue: Json | undefined;
	for (const [key, text] of [
		['workflow', texts.workflow],
		['prompt', texts.prompt]
	] as const) {
		if (text === undefined || text.trim() === '') continue;
		const parsed = parse(text, label, key === 'workflow' ? 'editor workflow' : 'workflow');
		if (!parsed.ok) {
			// A file's broken UI text does not spoil its prompt, and the other way round.
			if (texts.workflow !== undefined && texts.prompt !== undefined) continue;
			return parsed;
		}
		const format = workflowFormatOf(parsed.value);
		if (format === 'ui' && hasProtoKey(parsed.value))
			return {
				ok: false,
				message: `${label} uses "__proto__" as a name in its editor workflow, which Runboard cannot keep safely: rename it in ComfyUI and save again.`
			};
		if (format === 'ui' && isObject(parsed.value)) uiValue ??= parsed.value;
		else if (format === 'api') apiValue ??= parsed.value;
		else if (texts.workflow === undefined || texts.prompt === undefined)
			return {
				ok: false,
				message: `${label} is neither a ComfyUI workflow in the editor (UI) format (with "nodes" and "links") nor in the API format (nodes with "class_type").`
			};
	}
	const embedded = apiValue !== undefined ? toApiPrompt(apiValue) : undefined;
	if (embedded && !embedded.ok) return { ok: false, message: `${label}: ${embedded.message}` };
	if (!uiValue) {
		if (!embedded) return { ok: false, message: `${label} carries no workflow ComfyUI can read.` };
		return embedded;
	}
	const notes: string[] = [];
	if (!definitions) {
		if (!embedded) return { ok: false, message: `${label} is in the editor (UI) format. ${NO_DEFINITIONS}` };
		return {
			...embedded,
			ui: uiValue,
			notes: ['The editor graph could not be checked against the embedded prompt: no node definitions yet.']
		};
	}
	if (definitions.cachedNote) notes.push(definitions.cachedNote);
	const converted = convertUiWorkflow(uiValue, definitions.nodes);
	notes.push(...converted.warnings.map((w) => w.message));
	const missing: Missing = converted.missing;
	const withMissing = missing.nodeTypes.length + missing.models.length > 0 ? { missing } : {};
	if (!converted.ok) {
		const why = converted.errors.map((e) => e.message).join('\n');
		// Missing node types alone do not lose the workflow: it is kept, and runs once the server has them.
		if (!embedded && converted.partial && Object.keys(converted.partial).length > 0)
			return { ok: true, prompt: converted.partial, source: 'json', ui: uiValue, notes, ...withMissing };
		if (!embedded) return { ok: false, message: `${label} could not be converted from the editor (UI) format:\n${why}`, ...withMissing };
		notes.push(`The file's embedded prompt is used: its editor graph does not convert on this server (${why}).`);
		return { ...embedded, ui: uiValue, notes, ...withMissing };
	}
	if (Object.keys(converted.prompt).length === 0 && !embedded)
		return { ok: false, message: `${label} has no nodes that run (every node is muted, bypassed, or only for the editor).` };
	if (embedded) {
		const difference = promptDifference(embedded.prompt, converted.prompt);
		if (difference) {
			notes.push(`The file's embedded prompt is used, as ComfyUI ran it: the editor graph converts to a different one (${difference}).`);
			return { ...embedded, ui: uiValue, notes, ...withMissing };
		}
	}
	return { ok: true, prompt: converted.prompt, source: embedded ? embedded.source : 'json', ui: uiValue, notes, ...withMissing };
}
