/**
 * Reading v2 answers (jobs, assets, error envelopes, event payloads) into the typed values of
 * `workflow-v2.ts`, in both dialects: the public contract and what the self-hosted proxy sends
 * (`+00:00` times, `progress: null`, placeholder zeros, bare UUID ids, `size_bytes: 0`, null hashes,
 * absent `started_at`). Follow-up links are resolved against the URL of the answer that carried them.
 */
import { arr, isObject, num, obj, str, type Json, type JsonObject } from '../../core/protocol/json';
import {
	JOB_STATUSES,
	type JobStatus,
	type V2Asset,
	type V2Job,
	type V2JobError,
	type V2Output,
	type V2OutputType,
	type V2PreviewEvent,
	type V2Progress,
	type V2StatusEvent
} from './workflow-v2';

export type V2Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const OUTPUT_TYPES: ReadonlySet<string> = new Set(['image', 'video', 'audio', 'text', 'file', 'latent']);
const STATUSES: ReadonlySet<string> = new Set(JOB_STATUSES);

export function isJobStatus(value: unknown): value is JobStatus {
	return typeof value === 'string' && STATUSES.has(value);
}

/** A nullable string field: absent and null read the same. */
function optStr(o: JsonObject, key: string): string | null {
	return str(o, key) ?? null;
}

/** A date-time in either dialect (`Z` or `+00:00`, with or without microseconds), kept verbatim when it parses. */
export function readTime(o: JsonObject, key: string): string | null {
	const v = str(o, key);
	return v !== undefined && !Number.isNaN(Date.parse(v)) ? v : null;
}

/** Resolves a possibly relative URI reference against the URL of the answer; null when it is not one. */
export function resolveLink(ref: string | undefined, base: string): string | null {
	if (!ref) return null;
	try {
		return new URL(ref, base).href;
	} catch {
		return null;
	}
}

export function parseV2Progress(value: Json | undefined): V2Progress | null {
	if (!isObject(value)) return null;
	const done = num(value, 'nodes_done') ?? 0;
	const total = num(value, 'nodes_total') ?? 0;
	const raw = num(value, 'value') ?? 0;
	return {
		value: Math.min(1, Math.max(0, raw)),
		nodes_done: done,
		nodes_total: total,
		current_node: optStr(value, 'current_node'),
		current_node_class: optStr(value, 'current_node_class'),
		step: num(value, 'step') ?? null,
		steps: num(value, 'steps') ?? null,
		message: optStr(value, 'message')
	};
}

/** The proxy's polled placeholder: a progress of zeros while the job runs, which says nothing. */
export function isPlaceholderProgress(p: V2Progress | null): boolean {
	return p === null || (p.value === 0 && p.nodes_done === 0 && p.nodes_total === 0 && !p.current_node && !p.step);
}

export function parseV2Output(value: Json | undefined, base: string): V2Output | null {
	if (!isObject(value)) return null;
	const id = str(value, 'id');
	const nodeId = str(value, 'node_id');
	if (!id || nodeId === undefined) return null;
	const type = str(value, 'type') ?? 'file';
	return {
		node_id: nodeId,
		// Missing or blank: '' (the client labels it by node and index), never the long opaque asset id.
		name: str(value, 'name')?.trim() ?? '',
		type: (OUTPUT_TYPES.has(type) ? type : 'file') as V2OutputType,
		content_type: str(value, 'content_type') ?? 'application/octet-stream',
		size_bytes: num(value, 'size_bytes') ?? 0,
		id,
		hash: optStr(value, 'hash'),
		url: resolveLink(str(value, 'url'), base) ?? '',
		url_expires_at: readTime(value, 'url_expires_at') ?? ''
	};
}

function parseJobError(value: Json | undefined): V2JobError | null {
	if (!isObject(value)) return null;
	return {
		code: str(value, 'code') ?? 'unknown',
		message: str(value, 'message') ?? 'The job failed.',
		node_id: optStr(value, 'node_id'),
		class_type: optStr(value, 'class_type'),
		traceback: optStr(value, 'traceback')
	};
}

/** False for text with a lone surrogate half, which no URL, file name or UTF-8 encoder takes. */
export function isWellFormed(text: string): boolean {
	return !/\p{Surrogate}/u.test(text);
}

/** A job record; `base` is the URL of the answer, against which `urls` are resolved. */
export function parseV2Job(value: Json | undefined, base: string): V2Parsed<V2Job> {
	if (!isObject(value)) return { ok: false, reason: 'The job is not a JSON object.' };
	const id = str(value, 'id');
	if (!id) return { ok: false, reason: 'The job has no id.' };
	// A lone surrogate cannot go into a URL (`encodeURIComponent` throws URIError): refused like a missing id.
	if (!isWellFormed(id)) return { ok: false, reason: 'The job id is not well-formed text.' };
	const status = value['status'];
	if (!isJobStatus(status)) return { ok: false, reason: `The job has an unknown status (${JSON.stringify(status ?? null)}).` };
	const urls = obj(value, 'urls') ?? {};
	const enc = encodeURIComponent(id);
	// Links are followed, never built; a job answer without them falls back to the contract's paths.
	const self = resolveLink(str(urls, 'self'), base) ?? resolveLink(`jobs/${enc}`, base.replace(/jobs(\/.*)?$/, ''));
	if (!self) return { ok: false, reason: 'The job has no link to itself.' };
	const metrics = obj(value, 'metrics');
	const job: V2Job = {
		id,
		status,
		created_at: readTime(value, 'created_at') ?? '',
		started_at: readTime(value, 'started_at'),
		completed_at: readTime(value, 'completed_at'),
		expires_at: readTime(value, 'expires_at') ?? '',
		queue_position: num(value, 'queue_position') ?? null,
		progress: parseV2Progress(value['progress']),
		outputs: (arr(value, 'outputs') ?? []).flatMap((o) => parseV2Output(o, self) ?? []),
		error: parseJobError(value['error']),
		urls: {
			self,
			events: resolveLink(str(urls, 'events'), base) ?? `${self}/events`,
			cancel: resolveLink(str(urls, 'cancel'), base) ?? `${self}/cancel`
		}
	};
	if (metrics) {
		const m: Record<string, number | null> = Object.create(null) as Record<string, number | null>;
		for (const k of Object.keys(metrics)) m[k] = num(metrics, k) ?? null;
		job.metrics = m;
	}
	return { ok: true, value: job };
}

export function parseV2Asset(value: Json | undefined, base: string): V2Parsed<V2Asset> {
	if (!isObject(value)) return { ok: false, reason: 'The asset is not a JSON object.' };
	const id = str(value, 'id');
	if (!id) return { ok: false, reason: 'The asset has no id.' };
	const createdNew = value['created_new'];
	return {
		ok: true,
		value: {
			id,
			hash: optStr(value, 'hash'),
			size_bytes: num(value, 'size_bytes') ?? 0,
			content_type: str(value, 'content_type') ?? 'application/octet-stream',
			file_path: optStr(value, 'file_path'),
			created_at: readTime(value, 'created_at') ?? '',
			url: resolveLink(str(value, 'url'), base),
			url_expires_at: readTime(value, 'url_expires_at'),
			...(typeof createdNew === 'boolean' ? { created_new: createdNew } : {})
		}
	};
}

export interface V2Envelope {
	code: string;
	message: string;
	details: JsonObject | null;
}

/** The error envelope, or null when the body is not one (HTML, truncated, another shape). */
export function parseV2Envelope(value: Json | undefined): V2Envelope | null {
	const error = isObject(value) ? obj(value, 'error') : undefined;
	const code = error && str(error, 'code');
	if (!error || !code) return null;
	return { code, message: str(error, 'message') ?? code, details: obj(error, 'details') ?? null };
}

/**
 * `details.node_errors` in either dialect: the contract's `{node: [{field, reason}]}` or ComfyUI's
 * own `{node: {errors: [{message, details, extra_info: {input_name}}], class_type}}` (the proxy).
 * Read into field → reason lists per node; a map from untrusted keys, so a `Map`.
 */
export function parseV2NodeErrors(details: JsonObject | null): Map<string, { field: string | null; reason: string }[]> {
	const out = new Map<string, { field: string | null; reason: string }[]>();
	const nodes = details ? obj(details, 'node_errors') : undefined;
	if (!nodes) return out;
	for (const nodeId of Object.keys(nodes)) {
		const entry = nodes[nodeId];
		const list = Array.isArray(entry) ? entry : isObject(entry) ? (arr(entry, 'errors') ?? []) : [];
		const reasons = list.flatMap((e) => {
			if (!isObject(e)) return [];
			const info = obj(e, 'extra_info');
			const field = str(e, 'field') ?? (info && str(info, 'input_name')) ?? null;
			const reason = str(e, 'reason') ?? [str(e, 'message'), str(e, 'details')].filter(Boolean).join(': ');
			return reason ? [{ field, reason }] : [];
		});
		if (reasons.length) out.set(nodeId, reasons);
	}
	return out;
}

export function parseV2StatusEvent(value: Json | undefined): V2StatusEvent | null {
	if (!isObject(value) || !isJobStatus(value['status'])) return null;
	return { status: value['status'], queue_position: num(value, 'queue_position') ?? null };
}

export function parseV2PreviewEvent(value: Json | undefined): V2PreviewEvent | null {
	if (!isObject(value)) return null;
	const data = str(value, 'data_base64');
	if (!data) return null;
	return { node_id: str(value, 'node_id') ?? '', content_type: str(value, 'content_type') ?? 'image/jpeg', data_base64: data };
}
