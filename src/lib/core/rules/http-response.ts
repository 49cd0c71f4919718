/**
 * Reading a service response into a typed result, in one place. A failed response may be a proxy
 * HTML page, truncated JSON or plain text: the status and request id are kept whatever the body.
 */
import { isObject, own, str, tryParseJson, type Json } from '../protocol/json';
import { SERVICE_HEADERS } from '../protocol/service-headers';
import { appError, type AppError, type ErrorKind, type Result } from '../protocol/errors';

export interface RawResponse {
	status: number;
	/** Header lookup; returns null for a header that is absent or hidden by CORS. */
	header(name: string): string | null;
	body: string;
	/** The body of a 2xx answer read as bytes, when binary was asked for. */
	blob?: Blob;
	/** The same as a byte array, when the caller asked for `bytes`. */
	bytes?: Uint8Array;
}

export type Service = 'workflow' | 'router';

export function requestIdOf(res: Pick<RawResponse, 'header'>): string | undefined {
	return res.header(SERVICE_HEADERS.requestId) ?? res.header('X-Request-Id') ?? undefined;
}

function looksLikeHtml(res: RawResponse): boolean {
	const type = res.header('Content-Type') ?? '';
	return type.includes('text/html') || /^\s*<(!doctype|html|head|body)/i.test(res.body);
}

function excerpt(text: string): string {
	const flat = text
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}

/** Keyed by the server's `error_type`: read with `own()`, so `constructor` finds nothing. */
const ROUTER_KIND: Record<string, ErrorKind> = {
	unauthorized: 'unauthorized',
	forbidden: 'forbidden',
	not_enabled: 'not-enabled',
	insufficient_credits: 'no-credits',
	rate_limited: 'rate-limited',
	service_unavailable: 'unavailable',
	invalid_input: 'invalid-input',
	model_not_found: 'not-found',
	request_not_found: 'not-found'
};

function kindOfStatus(status: number, service: Service): ErrorKind {
	if (status === 401) return 'unauthorized';
	if (status === 402) return 'no-credits';
	if (status === 403) return 'forbidden';
	if (status === 404) return 'not-found';
	if (status === 429) return service === 'workflow' ? 'inactive-subscription' : 'rate-limited';
	if (status === 503) return 'unavailable';
	if (status === 400 || status === 422) return 'invalid-input';
	if (status >= 500) return 'server';
	return 'unknown';
}

const KIND_MESSAGE: Partial<Record<ErrorKind, string>> = {
	unauthorized: 'The API key was refused. Check it in Settings, or create a new one in your account.',
	forbidden: 'The API key is valid but not allowed to do this.',
	'not-enabled': 'The model router is not enabled for this account yet. Ask the provider to switch it on.',
	'no-credits': 'The account has no credits left. Add credits, then try again.',
	'inactive-subscription': 'The subscription is not active. Renew it in your account to run workflows.',
	'rate-limited': 'Too many requests for now. Wait a moment and try again.',
	unavailable: 'The service is temporarily unavailable. It will be retried.',
	'not-found': 'The service does not have this route or item.',
	'invalid-input': 'The service rejected the request as invalid.',
	server: 'The service failed to handle the request.'
};

function errorFrom(res: RawResponse, service: Service): AppError {
	const requestId = requestIdOf(res);
	const headerType = res.header(SERVICE_HEADERS.errorType) ?? undefined;
	if (looksLikeHtml(res)) {
		return appError(
			'html-response',
			`The server answered with an HTML page (HTTP ${res.status}) instead of JSON: a proxy, gateway or login page may be in the way.`,
			{ status: res.status, requestId, errorType: headerType, detail: excerpt(res.body) }
		);
	}
	const json = tryParseJson(res.body);
	const body = isObject(json) ? json : undefined;
	const errorType = headerType ?? (body ? str(body, 'error_type') : undefined);
	const bodyMessage = body ? (str(body, 'message') ?? str(body, 'detail') ?? errorMessageOf(body)) : undefined;
	const kind = (errorType && own(ROUTER_KIND, errorType)) || kindOfStatus(res.status, service);
	const base = KIND_MESSAGE[kind] ?? `The service answered HTTP ${res.status}.`;
	const detail = bodyMessage ?? (json === undefined && res.body.trim() !== '' ? excerpt(res.body) : undefined);
	return appError(kind, base, { status: res.status, requestId, errorType, ...(detail ? { detail } : {}) });
}

/** ComfyUI's `{error: {message}}` or `{error: "text"}`. */
function errorMessageOf(body: { [k: string]: Json }): string | undefined {
	const e = own(body, 'error');
	if (typeof e === 'string') return e;
	if (isObject(e)) return str(e, 'message');
	return undefined;
}

/** A 2xx JSON body, or an error value that says what went wrong. */
export function readJson(res: RawResponse, service: Service): Result<Json> {
	if (res.status < 200 || res.status >= 300) return { ok: false, error: errorFrom(res, service) };
	const requestId = requestIdOf(res);
	if (looksLikeHtml(res)) {
		return {
			ok: false,
			error: appError('html-response', `Expected JSON but got an HTML page (HTTP ${res.status}): is this the right address?`, {
				status: res.status,
				requestId,
				detail: excerpt(res.body)
			})
		};
	}
	const json = tryParseJson(res.body);
	if (json === undefined) {
		return {
			ok: false,
			error: appError('bad-response', `The answer (HTTP ${res.status}) is not valid JSON; it may have been cut off.`, {
				status: res.status,
				requestId,
				detail: excerpt(res.body)
			})
		};
	}
	return { ok: true, value: json };
}

/** An error value for a non-2xx response, for callers that do not expect a body. */
export function responseError(res: RawResponse, service: Service): AppError {
	return errorFrom(res, service);
}
