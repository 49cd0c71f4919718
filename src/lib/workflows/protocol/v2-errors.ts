/**
 * A v2 error answer as an error value: the envelope's `code` decides the kind and the next step in
 * words; an unknown code (or no envelope: HTML, a truncated body) is handled by its HTTP status.
 */
import type { V2Envelope } from './workflow-v2-parse';
import { appError, type AppError, type ErrorKind } from '../../core/protocol/errors';

const BY_CODE: Record<string, { kind: ErrorKind; next: string }> = {
	unauthorized: {
		kind: 'unauthorized',
		next: "The key was refused: check the profile's key (a self-hosted proxy started with --token needs that token)."
	},
	forbidden: { kind: 'forbidden', next: 'This key may not do this: check its rights on the service.' },
	forbidden_origin: {
		kind: 'cors',
		next: 'The proxy does not allow this app: restart it with --enable-cors-header and this app’s origin.'
	},
	insufficient_credits: { kind: 'no-credits', next: 'The account has too few credits: add credits, then run again.' },
	queue_full: { kind: 'rate-limited', next: 'The queue is full: the app tries again after the wait the service asked for.' },
	too_many_streams: { kind: 'rate-limited', next: 'Too many live streams are open: progress is followed by polling instead.' },
	invalid_workflow: { kind: 'invalid-input', next: 'Fix the fields marked in the form, then run again.' },
	workflow_format_ui: { kind: 'invalid-input', next: 'The workflow is a UI-format export: import it so it is converted, then run again.' },
	missing_asset: { kind: 'invalid-input', next: 'An input file is no longer on the service: choose the file again, then run again.' },
	idempotency_key_reuse: { kind: 'invalid-input', next: 'This request was already sent once with another body: start a new run.' },
	idempotency_conflict: { kind: 'rate-limited', next: 'The same request is still being handled: the app waits and asks again.' },
	hash_mismatch: { kind: 'invalid-input', next: 'The file changed while it was being read: choose it again.' },
	blob_not_found: { kind: 'not-found', next: 'The service does not have this content: it will be uploaded.' },
	not_found: { kind: 'not-found', next: 'The service has no such job or asset: it may have expired.' },
	upstream_unreachable: { kind: 'unavailable', next: 'The ComfyUI behind the proxy does not answer: start it, then try again.' },
	upstream_error: { kind: 'server', next: 'The ComfyUI behind the proxy answered with an error: see its console.' },
	output_unavailable: {
		kind: 'not-found',
		next: 'The output’s bytes are gone on the server (it may have restarted); a copy saved here is still shown.'
	},
	payload_too_large: { kind: 'invalid-input', next: 'The file is larger than the server accepts: use a smaller file.' },
	invalid_request: { kind: 'invalid-input', next: 'The server refused the request as malformed.' }
};

function kindOfStatus(status: number): ErrorKind {
	if (status === 401) return 'unauthorized';
	if (status === 402) return 'no-credits';
	if (status === 403) return 'forbidden';
	if (status === 404) return 'not-found';
	if (status === 409 || status === 429) return 'rate-limited';
	if (status === 400 || status === 413 || status === 422) return 'invalid-input';
	if (status === 503) return 'unavailable';
	if (status >= 500) return 'server';
	return 'unknown';
}

const WORDS_OF_STATUS: Partial<Record<ErrorKind, string>> = {
	unauthorized: "The key was refused: check the profile's key.",
	forbidden: 'The service refused this request.',
	'not-found': 'The service has no such job or asset.',
	'rate-limited': 'The service is busy: try again in a moment.',
	'invalid-input': 'The service refused the request.',
	unavailable: 'The service is unavailable for now: try again later.',
	server: 'The service had an error: try again later.'
};

/** `envelope` is null when the body was not one (its excerpt goes in `detail`). */
export function v2ErrorOf(status: number, envelope: V2Envelope | null, extra: { requestId?: string; detail?: string } = {}): AppError {
	const known = envelope ? BY_CODE[envelope.code] : undefined;
	const kind = known?.kind ?? kindOfStatus(status);
	const words = known?.next ?? WORDS_OF_STATUS[kind] ?? `The service answered HTTP ${status}.`;
	const message = envelope && envelope.message !== envelope.code ? `${envelope.message} ${words}` : words;
	return appError(kind, message, {
		status,
		...(envelope ? { errorType: envelope.code } : {}),
		...(extra.requestId ? { requestId: extra.requestId } : {}),
		...(extra.detail ? { detail: extra.detail } : {})
	});
}

/** What a proxy refusing this app's origin needs, in words: the exact flag, and the localhost trap. */
export function corsAdvice(appOrigin: string): string {
	const url = new URL(appOrigin);
	const twin =
		url.hostname === 'localhost'
			? appOrigin.replace('//localhost', '//127.0.0.1')
			: url.hostname === '127.0.0.1'
				? appOrigin.replace('//127.0.0.1', '//localhost')
				: null;
	return (
		`Start the proxy with --enable-cors-header ${appOrigin} so this app may call it.` +
		(twin ? ` ${url.hostname} and ${new URL(twin).hostname} are different origins: list ${appOrigin} exactly as this app is opened.` : '')
	);
}
