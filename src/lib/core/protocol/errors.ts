/**
 * Errors are values: a kind to branch on, a message a person can act on, and whatever the wire
 * told us (status, request id, the service's own error type). Never thrown across layers.
 */

export type ErrorKind =
	| 'network' // no answer at all: server down, wrong address, DNS
	| 'cors' // the server answered, but the browser hid it: its CORS headers do not allow this app
	| 'local-network' // a public page reaching a loopback/private server was blocked by the browser
	| 'mixed-content' // an https page calling an http service
	| 'timeout' // no answer within the time allowed
	| 'cancelled' // stopped on purpose: the user pressed Cancel, or the page that asked went away
	| 'aborted' // the request was cancelled on purpose (an AbortSignal), not timed out
	| 'outcome-unknown' // a keyed call was sent and the service can no longer say what became of it
	| 'stopped-waiting' // a person stopped waiting; the provider may still finish and charge
	| 'unauthorized' // 401
	| 'forbidden' // 403
	| 'not-enabled' // router: service not switched on for the caller
	| 'not-found'
	| 'no-credits' // 402 / insufficient_credits
	| 'inactive-subscription' // v1 429
	| 'rate-limited'
	| 'unavailable' // 503
	| 'html-response' // a proxy or gateway page where JSON was expected
	| 'bad-response' // truncated or malformed JSON, or an unexpected shape
	| 'unreadable-result' // a keyed call succeeded (and may be charged) but its answer could not be read: ask again
	| 'server' // 5xx with a readable body
	| 'invalid-input'
	| 'origin-refused' // our own guard: the request would have left the profile's origins
	| 'redirect-refused' // a credentialed request was redirected; we never follow those
	| 'socket-refused'
	| 'storage'
	| 'invalid-profile'
	| 'unknown';

export interface AppError {
	kind: ErrorKind;
	message: string;
	status?: number;
	/** The service's request id, when the response carried one and the browser let us read it. */
	requestId?: string;
	/** The service's own error type (router `error_type`), kept verbatim even when unknown. */
	errorType?: string;
	/** Extra lines for the curious: a body excerpt, a traceback. */
	detail?: string;
}

export type Result<T, E = AppError> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const fail = <E = AppError>(error: E): Result<never, E> => ({ ok: false, error });

export function appError(kind: ErrorKind, message: string, extra: Omit<AppError, 'kind' | 'message'> = {}): AppError {
	return { kind, message, ...extra };
}

/**
 * The request id in words: shown when there is one; its absence is said only for a service that
 * promises one on every response (the model router, per model-router.md). Workflow servers (ComfyUI,
 * the cloud service) never send ids, so there it is simply not mentioned.
 */
export function requestIdWords(error: Pick<AppError, 'requestId'>, promised: boolean): string | null {
	if (error.requestId) return `request id ${error.requestId}`;
	return promised ? 'request id not available' : null;
}

/** One line for logs and screen readers: message, then status, error type and request id when known. */
export function describeError(error: AppError, options: { requestIdPromised?: boolean } = {}): string {
	const facts: string[] = [];
	if (error.status !== undefined) facts.push(`HTTP ${error.status}`);
	if (error.errorType) facts.push(`type ${error.errorType}`);
	const id = requestIdWords(error, options.requestIdPromised ?? false);
	if (id) facts.push(id);
	return facts.length > 0 ? `${error.message} (${facts.join(', ')})` : error.message;
}
