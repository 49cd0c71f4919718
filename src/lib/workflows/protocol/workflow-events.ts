/**
 * JSON text frames of the workflow service's WebSocket (spec: Events). Parsed once here into a
 * tagged union; everything downstream trusts the result.
 */
import { arr, isObject, num, obj, own, setOwn, str, tryParseJson, type Json, type JsonObject } from '../../core/protocol/json';
import type { FileRef } from './workflow-api';

export type { FileRef };

function fileType(value: string | undefined): FileRef['type'] {
	return value === 'input' || value === 'temp' ? value : 'output';
}

export interface NodeOutput {
	images: FileRef[];
	video: FileRef[];
	audio: FileRef[];
	/** v2 only: outputs offered as downloads (`file`, `latent`). */
	files?: FileRef[];
	/** Any other output members, kept verbatim (text outputs, custom node data). */
	other: JsonObject;
}

export type ServerEvent =
	| { type: 'status'; queueRemaining: number | undefined; sid: string | undefined }
	| { type: 'notification'; value: string; promptId: string | undefined }
	| { type: 'execution_start'; promptId: string }
	| { type: 'executing'; promptId: string | undefined; node: string | null }
	| { type: 'progress'; promptId: string | undefined; node: string | undefined; value: number; max: number }
	| { type: 'progress_state'; promptId: string; nodes: JsonObject }
	/** v2 only: how many nodes finished, without their ids (the self-hosted proxy's snapshots); never parsed from a socket. */
	| { type: 'nodes_counted'; promptId: string; done: number }
	| { type: 'executed'; promptId: string; node: string; output: NodeOutput }
	| { type: 'execution_cached'; promptId: string; nodes: string[] }
	| { type: 'execution_success'; promptId: string }
	| {
			type: 'execution_error';
			promptId: string;
			nodeId: string | undefined;
			nodeType: string | undefined;
			exceptionType: string;
			exceptionMessage: string;
			traceback: string[];
	  }
	| { type: 'execution_interrupted'; promptId: string; nodeId: string | undefined; nodeType: string | undefined }
	| { type: 'feature_flags'; flags: JsonObject }
	| { type: 'unknown'; rawType: string; data: Json };

export type ParseEventResult = { ok: true; event: ServerEvent } | { ok: false; message: string };

export function parseFileRefs(value: Json | undefined): FileRef[] {
	if (!Array.isArray(value)) return [];
	const refs: FileRef[] = [];
	for (const item of value) {
		if (!isObject(item)) continue;
		const filename = str(item, 'filename');
		if (!filename) continue;
		refs.push({ filename, subfolder: str(item, 'subfolder') ?? '', type: fileType(str(item, 'type')) });
	}
	return refs;
}

export function parseNodeOutput(value: Json | undefined): NodeOutput {
	const o = isObject(value) ? value : {};
	const other: JsonObject = {};
	for (const [k, v] of Object.entries(o)) if (k !== 'images' && k !== 'video' && k !== 'audio' && k !== 'gifs') setOwn(other, k, v);
	// ComfyUI's animated outputs arrive as `gifs` from some nodes; treat them as video.
	return {
		images: parseFileRefs(own(o, 'images')),
		video: [...parseFileRefs(own(o, 'video')), ...parseFileRefs(own(o, 'gifs'))],
		audio: parseFileRefs(own(o, 'audio')),
		other
	};
}

function strings(value: Json | undefined): string[] {
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Parses one text frame. Unknown types are kept (`unknown`), malformed frames are errors. */
export function parseServerEvent(text: string): ParseEventResult {
	const msg = tryParseJson(text);
	if (!isObject(msg)) return { ok: false, message: 'WebSocket message is not a JSON object' };
	const type = str(msg, 'type');
	if (!type) return { ok: false, message: 'WebSocket message has no "type"' };
	const data: JsonObject = obj(msg, 'data') ?? {};
	const promptId = str(data, 'prompt_id');
	const needPrompt = (): ParseEventResult | undefined =>
		promptId ? undefined : { ok: false, message: `"${type}" message has no prompt_id` };

	switch (type) {
		case 'status': {
			// ComfyUI nests it as data.status.exec_info.queue_remaining; accept the flat form too.
			const execInfo = obj(obj(data, 'status') ?? {}, 'exec_info');
			const queueRemaining = (execInfo && num(execInfo, 'queue_remaining')) ?? num(data, 'queue_remaining');
			return { ok: true, event: { type, queueRemaining, sid: str(data, 'sid') } };
		}
		case 'notification':
			return { ok: true, event: { type, value: str(data, 'value') ?? '', promptId } };
		case 'execution_start':
			return needPrompt() ?? { ok: true, event: { type, promptId: promptId! } };
		case 'executing': {
			const node = own(data, 'node');
			return {
				ok: true,
				event: { type, promptId, node: typeof node === 'string' && node !== '' ? node : null }
			};
		}
		case 'progress': {
			const value = num(data, 'value');
			const max = num(data, 'max');
			if (value === undefined || max === undefined) return { ok: false, message: 'progress message lacks value or max' };
			return { ok: true, event: { type, promptId, node: str(data, 'node'), value, max } };
		}
		case 'progress_state':
			return needPrompt() ?? { ok: true, event: { type, promptId: promptId!, nodes: obj(data, 'nodes') ?? {} } };
		case 'executed': {
			const node = str(data, 'node') ?? str(data, 'display_node');
			if (!node) return { ok: false, message: 'executed message has no node' };
			return needPrompt() ?? { ok: true, event: { type, promptId: promptId!, node, output: parseNodeOutput(own(data, 'output')) } };
		}
		case 'execution_cached':
			return needPrompt() ?? { ok: true, event: { type, promptId: promptId!, nodes: strings(own(data, 'nodes')) } };
		case 'execution_success':
			return needPrompt() ?? { ok: true, event: { type, promptId: promptId! } };
		case 'execution_error':
			return (
				needPrompt() ?? {
					ok: true,
					event: {
						type,
						promptId: promptId!,
						nodeId: str(data, 'node_id'),
						nodeType: str(data, 'node_type'),
						exceptionType: str(data, 'exception_type') ?? 'UnknownError',
						exceptionMessage: str(data, 'exception_message') ?? '',
						traceback: strings(arr(data, 'traceback'))
					}
				}
			);
		case 'execution_interrupted':
			return (
				needPrompt() ?? { ok: true, event: { type, promptId: promptId!, nodeId: str(data, 'node_id'), nodeType: str(data, 'node_type') } }
			);
		case 'feature_flags':
			return { ok: true, event: { type, flags: data } };
		default:
			return { ok: true, event: { type: 'unknown', rawType: type, data: own(msg, 'data') ?? null } };
	}
}

/** The message a client sends first to receive type-4 preview frames. */
export const CLIENT_FEATURE_FLAGS = { type: 'feature_flags', data: { supports_preview_metadata: true } } as const;
