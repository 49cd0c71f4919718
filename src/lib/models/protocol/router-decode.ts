/**
 * Reading the router's answers (spec B) into typed values, in one place. Each decoder takes the
 * body as text, because a failed answer can be a proxy page or cut-off JSON: what cannot be read
 * is `undefined`, never a throw, and the caller keeps the status and headers.
 */
import { arr, isObject, num, str, tryParseJson, type JsonObject } from '../../core/protocol/json';
import {
	ROUTER_HEADERS,
	type RouterErrorType,
	type RouterQueueCancelStatus,
	type RouterQueueStatus,
	type RouterQueueSubmitResponse
} from './router-api';

function objectOf(body: string): JsonObject | undefined {
	const json = tryParseJson(body);
	return isObject(json) ? json : undefined;
}

/** The error type of an answer: the header first, then the body's `error_type` (they mirror each other). */
export function decodeErrorType(answer: { header(name: string): string | null; body: string }): RouterErrorType | undefined {
	const header = answer.header(ROUTER_HEADERS.errorType);
	if (header) return header;
	const body = objectOf(answer.body);
	return body ? str(body, 'error_type') : undefined;
}

/** A queue submission's handle; undefined unless it has the request id and all three URLs. */
export function decodeQueueSubmit(body: string): RouterQueueSubmitResponse | undefined {
	const o = objectOf(body);
	if (!o) return undefined;
	const request_id = str(o, 'request_id');
	const status_url = str(o, 'status_url');
	const response_url = str(o, 'response_url');
	const cancel_url = str(o, 'cancel_url');
	if (!request_id || !status_url || !response_url || !cancel_url) return undefined;
	const queue_position = num(o, 'queue_position');
	return {
		request_id,
		status_url,
		response_url,
		cancel_url,
		status: str(o, 'status') ?? '',
		...(queue_position !== undefined ? { queue_position } : {})
	};
}

/** What a status poll says; an unreadable body reads as "no status, no position" (not finished). */
export interface QueueStatusFacts {
	status?: RouterQueueStatus;
	queue_position?: number;
}

export function decodeQueueStatus(body: string): QueueStatusFacts {
	const o = objectOf(body) ?? {};
	const status = str(o, 'status');
	const queue_position = num(o, 'queue_position');
	return { ...(status !== undefined ? { status } : {}), ...(queue_position !== undefined ? { queue_position } : {}) };
}

/** A cancel answer's status, when the body names one. */
export function decodeQueueCancel(body: string): RouterQueueCancelStatus | (string & {}) | undefined {
	const o = objectOf(body);
	return o ? str(o, 'status') : undefined;
}

/** The per-field entries of a 422, reduced to where (`loc`) and what (`msg`). */
export function decodeValidationErrors(body: string): Array<{ loc: Array<string | number>; msg: string }> {
	const o = objectOf(body);
	const entries = o ? (arr(o, 'detail') ?? []) : [];
	return entries.filter(isObject).map((e) => ({
		loc: (Array.isArray(e['loc']) ? e['loc'] : []).filter((s): s is string | number => typeof s === 'string' || typeof s === 'number'),
		msg: str(e, 'msg') ?? 'Rejected.'
	}));
}

/**
 * A 422's message when it names no field: `detail` as text (many servers answer so), else a
 * `message` or `error` text. Undefined when the body has per-field entries or nothing readable.
 */
export function decodeValidationMessage(body: string): string | undefined {
	const o = objectOf(body);
	if (!o) return undefined;
	const text = str(o, 'detail') ?? str(o, 'message') ?? str(o, 'error');
	const trimmed = text?.trim();
	return trimmed ? trimmed.slice(0, 2000) : undefined;
}
