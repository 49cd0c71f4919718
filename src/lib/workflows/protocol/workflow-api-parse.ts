/**
 * Reading the v1 service's and ComfyUI's HTTP answers (spec A) into the typed values of
 * `workflow-api.ts`, one parser per answer, the way `workflow-v2-parse.ts` reads v2. Whatever a
 * parser returns is safe to trust downstream; an answer of the wrong shape is a `bad-response`
 * error that says which part was wrong.
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import { isObject, own, str, type Json, type JsonObject } from '../../core/protocol/json';
import { parseFileRefs } from './workflow-events';
import {
	JOB_STATES,
	type ApiPrompt,
	type HistoryEntry,
	type HistoryMessage,
	type JobState,
	type NodeUiOutput,
	type QueueItem,
	type NodeErrors,
	type QueueResponse,
	type ValidationError
} from './workflow-api';

const badAnswer = (message: string) => fail(appError('bad-response', message));

/** `POST /api/prompt` accepted: the job's id (undefined when the answer has none). */
export function parseSubmitAccepted(json: Json): string | undefined {
	return isObject(json) ? str(json, 'prompt_id') : undefined;
}

/** `GET /api/job/{id}/status`. */
export function parseJobStatus(json: Json): Result<JobState> {
	const state = isObject(json) ? str(json, 'status') : undefined;
	return state && (JOB_STATES as readonly string[]).includes(state)
		? ok(state as JobState)
		: badAnswer(`Unknown job status "${state ?? '(none)'}".`);
}

function strings(value: Json | undefined): string[] | undefined {
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

function parseUiOutput(value: JsonObject): NodeUiOutput {
	const output: NodeUiOutput = {};
	for (const key of ['images', 'video', 'audio', 'files'] as const)
		if (Array.isArray(own(value, key))) output[key] = parseFileRefs(own(value, key));
	const text = strings(own(value, 'text'));
	if (text) output.text = text;
	const animated = own(value, 'animated');
	if (Array.isArray(animated)) output.animated = animated.map((a) => a === true);
	return output;
}

function parseQueueItem(value: Json): QueueItem | undefined {
	if (!Array.isArray(value) || typeof value[1] !== 'string') return undefined;
	const [position, promptId, prompt, extra, outputs] = value;
	return [
		typeof position === 'number' ? position : 0,
		promptId,
		isObject(prompt) ? (prompt as unknown as ApiPrompt) : {},
		isObject(extra) ? extra : {},
		strings(outputs) ?? []
	];
}

const STATUS_STRS: ReadonlySet<string> = new Set(['success', 'error', 'cancelled']);

/**
 * `GET /api/history/{id}`: the job's entry, or null when the runtime has none (yet, or a deleted
 * pending job). An entry whose status is missing counts as none (a runtime writes the status with the entry).
 */
export function parseHistory(json: Json, promptId: string): Result<HistoryEntry | null> {
	if (!isObject(json)) return badAnswer('The history answer is not a JSON object.');
	const entry = own(json, promptId);
	if (!isObject(entry)) return ok(null);
	const status = own(entry, 'status');
	if (!isObject(status)) return ok(null);
	const statusStr = str(status, 'status_str');
	if (!statusStr || !STATUS_STRS.has(statusStr)) return badAnswer(`Unknown history status "${statusStr ?? '(none)'}".`);
	const rawMessages = own(status, 'messages');
	const messages: HistoryMessage[] = Array.isArray(rawMessages)
		? rawMessages.flatMap((m): HistoryMessage[] =>
				Array.isArray(m) && typeof m[0] === 'string' ? [[m[0], isObject(m[1]) ? m[1] : {}]] : []
			)
		: [];
	const outputs: Record<string, NodeUiOutput> = Object.create(null) as Record<string, NodeUiOutput>;
	const rawOutputs = own(entry, 'outputs');
	if (rawOutputs !== undefined && !isObject(rawOutputs)) return badAnswer('The history entry’s outputs are not a JSON object.');
	for (const [nodeId, output] of Object.entries(rawOutputs ?? {})) if (isObject(output)) outputs[nodeId] = parseUiOutput(output);
	const meta = own(entry, 'meta');
	return ok({
		prompt: parseQueueItem(own(entry, 'prompt') ?? null) ?? [0, promptId, {}, {}, []],
		outputs,
		status: {
			status_str: statusStr as HistoryEntry['status']['status_str'],
			completed: own(status, 'completed') === true,
			messages
		},
		meta: (isObject(meta) ? meta : {}) as HistoryEntry['meta']
	});
}

/** `GET /api/queue`: the running and waiting jobs; items without a prompt id are left out. */
export function parseQueue(json: Json): Result<QueueResponse> {
	const running = isObject(json) ? own(json, 'queue_running') : undefined;
	const pending = isObject(json) ? own(json, 'queue_pending') : undefined;
	if (!Array.isArray(running) || !Array.isArray(pending)) return badAnswer('The queue answer has no queue_running / queue_pending lists.');
	// Each item is itself an array: kept whole, not flattened.
	const items = (list: Json[]) => list.map(parseQueueItem).filter((item): item is QueueItem => item !== undefined);
	return ok({ queue_running: items(running), queue_pending: items(pending) });
}

/** `POST /api/jobs/{id}/cancel`: whether the server dispatched a cancel. */
export function parseCancelled(json: Json): boolean {
	return isObject(json) && own(json, 'cancelled') === true;
}

/** `system.comfyui_version` of `/system_stats`, when it is a short plain version string. */
export function parseServerVersion(json: Json): string | null {
	const system = isObject(json) ? own(json, 'system') : undefined;
	const version = isObject(system) ? str(system, 'comfyui_version') : undefined;
	return version !== undefined && /^[\w.+-]{1,40}$/.test(version) ? version : null;
}

/** `POST /api/assets/from-hash` found the content: the name it is stored under, when the answer gives one. */
export function parseFromHashName(json: Json): string | undefined {
	return isObject(json) ? str(json, 'name') : undefined;
}

function parseValidationError(value: Json): ValidationError | undefined {
	if (!isObject(value)) return undefined;
	const info = own(value, 'extra_info');
	return {
		type: str(value, 'type') ?? '',
		message: str(value, 'message') ?? '',
		details: str(value, 'details') ?? '',
		extra_info: isObject(info) ? info : {}
	};
}

/** `node_errors` of a rejected submit, per node; entries of the wrong shape are left out. */
export function parseNodeErrors(value: Json | undefined): NodeErrors {
	const out: NodeErrors = Object.create(null) as NodeErrors;
	if (!isObject(value)) return out;
	for (const [nodeId, entry] of Object.entries(value)) {
		if (!isObject(entry)) continue;
		const errors = own(entry, 'errors');
		out[nodeId] = {
			errors: Array.isArray(errors) ? errors.flatMap((e) => parseValidationError(e) ?? []) : [],
			dependent_outputs: strings(own(entry, 'dependent_outputs')) ?? [],
			class_type: str(entry, 'class_type') ?? ''
		};
	}
	return out;
}

/** A rejected `POST /api/prompt` (400, or an answer with `error` and no id): what to tell, and the nodes at fault. */
export function parseRejection(json: Json): { message: string; nodeErrors: NodeErrors } | undefined {
	if (!isObject(json)) return undefined;
	const error = own(json, 'error');
	const message = isObject(error)
		? (str(error, 'message') ?? 'The workflow was rejected.')
		: typeof error === 'string'
			? error
			: 'The workflow was rejected.';
	const details = isObject(error) ? str(error, 'details') : undefined;
	return { message: details ? `${message}: ${details}` : message, nodeErrors: parseNodeErrors(own(json, 'node_errors')) };
}
