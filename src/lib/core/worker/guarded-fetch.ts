/**
 * The worker's one door to the services. Every credentialed request goes through here:
 * - it refuses any URL outside the profile's own service origins, before anything is sent;
 * - it never follows a redirect (`redirect: 'error'`), so a surprise redirect cannot carry the key
 *   to another host (GUIDE §2: a custom header survives cross-origin redirects);
 * - it turns every outcome into a value: a raw response, or an error with a kind.
 */
import { appError, type AppError, type Result } from '../protocol/errors';
import { requestIdOf, type RawResponse } from '../rules/http-response';
import { diagnoseNetworkFailure, type FetchLike } from './network-diagnosis';
import type { ServerGate } from './server-gate';

import { credentialPlacement, type Credential } from '../rules/credential';

export type { Credential };

export interface GuardedRequest {
	url: string;
	method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
	headers?: Record<string, string>;
	body?: string | FormData | Blob;
	credential: Credential;
	timeoutMs?: number;
	signal?: AbortSignal;
	/**
	 * `error` (the default) never follows a redirect. `follow-without-credentials` follows one only
	 * when the credential is a Bearer token or none: browsers drop `Authorization` on a cross-origin
	 * redirect, so the key cannot reach the host redirected to. `X-API-Key` would be forwarded, so it
	 * is refused with this mode.
	 */
	redirect?: 'error' | 'follow-without-credentials';
	/**
	 * How the body is read: `text` (the default); `blob`, a 2xx body as a Blob (others as text);
	 * `bytes`, every body as bytes, with its text decoded beside them for error reading.
	 */
	read?: 'text' | 'blob' | 'bytes';
	/** The same as `read: 'blob'` (kept for the workflow client). */
	binary?: boolean;
	/** Hand a 2xx body over chunk by chunk as it arrives (an event stream); the answer's `body` is then empty. */
	onChunk?: (chunk: Uint8Array) => void;
}

/** A raw response, with the body's bytes when `read: 'bytes'` asked for them. */
export interface GuardedResponse extends RawResponse {
	bytes?: Uint8Array;
}

export interface GuardOptions {
	allowedOrigins: readonly string[];
	appOrigin: string;
	fetchImpl?: FetchLike;
	/** The shared backoff of a server that does not answer, for the origins that have one (the workflow servers). */
	gate?: (origin: string) => ServerGate | undefined;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export function credentialHeaders(credential: Credential): Record<string, string> {
	if (!credential || credential.key === '') return {};
	const placement = credentialPlacement(credential);
	return placement.in === 'header' ? { [placement.name]: placement.value } : {};
}

export function isAllowedUrl(url: string, allowedOrigins: readonly string[]): boolean {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return false;
	}
	return allowedOrigins.includes(parsed.origin);
}

export function createGuardedFetch(options: GuardOptions) {
	const fetchImpl: FetchLike = options.fetchImpl ?? ((input, init) => fetch(input, init));

	return async function guardedFetch(request: GuardedRequest): Promise<Result<GuardedResponse>> {
		const follow = request.redirect === 'follow-without-credentials';
		if (follow && request.credential?.scheme === 'x-api-key') {
			return {
				ok: false,
				error: appError(
					'redirect-refused',
					'Refused to follow a redirect with the X-API-Key header: the key would be sent to the host redirected to.'
				)
			};
		}
		if (!isAllowedUrl(request.url, options.allowedOrigins)) {
			let shown = request.url;
			try {
				shown = new URL(request.url).origin;
			} catch {
				/* not a URL: show it as given */
			}
			return {
				ok: false,
				error: appError('origin-refused', `Refused to send a request to ${shown}: it is not one of this profile's service addresses.`)
			};
		}
		const gate = options.gate?.(new URL(request.url).origin);
		// A read of a server that does not answer waits out the shared backoff (nothing is sent meanwhile).
		if (gate && (request.method ?? 'GET') === 'GET') {
			const admitted = await gate.admit();
			if (!admitted.ok) return { ok: false, error: admitted.error };
		}
		const signals = [AbortSignal.timeout(request.timeoutMs ?? DEFAULT_TIMEOUT_MS)];
		if (request.signal) signals.push(request.signal);
		let response: Response;
		try {
			response = await fetchImpl(request.url, {
				method: request.method ?? 'GET',
				headers: { ...request.headers, ...credentialHeaders(request.credential) },
				...(request.body !== undefined ? { body: request.body } : {}),
				redirect: follow ? 'follow' : 'error',
				credentials: 'omit',
				cache: 'no-store',
				signal: AbortSignal.any(signals)
			});
		} catch (error) {
			const failure = await failureOf(error, request, options, fetchImpl, gate);
			if (failure.kind === 'cors') gate?.answered();
			else gate?.failed(failure);
			return { ok: false, error: failure };
		}
		gate?.answered();
		const read = request.read ?? (request.binary ? 'blob' : 'text');
		let body = '';
		let blob: Blob | undefined;
		let bytes: Uint8Array | undefined;
		try {
			const success = response.status >= 200 && response.status < 300;
			if (success && request.onChunk && response.body) {
				const reader = response.body.getReader();
				for (let part = await reader.read(); !part.done; part = await reader.read()) request.onChunk(part.value);
			} else if (read === 'blob' && success) blob = await response.blob();
			else if (read === 'bytes') {
				bytes = new Uint8Array(await response.arrayBuffer());
				body = new TextDecoder().decode(bytes);
			} else body = await response.text();
		} catch {
			return {
				ok: false,
				error: appError('network', 'The connection dropped while the answer was arriving.', {
					status: response.status,
					requestId: requestIdOf({ header: (name) => response.headers.get(name) })
				})
			};
		}
		const headers = response.headers;
		return {
			ok: true,
			value: { status: response.status, header: (name) => headers.get(name), body, ...(blob ? { blob } : {}), ...(bytes ? { bytes } : {}) }
		};
	};
}

async function failureOf(
	error: unknown,
	request: GuardedRequest,
	options: GuardOptions,
	fetchImpl: FetchLike,
	gate: ServerGate | undefined
): Promise<AppError> {
	if (error instanceof DOMException && error.name === 'TimeoutError') {
		return appError(
			'timeout',
			`No answer from ${new URL(request.url).origin} within ${Math.round((request.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s.`
		);
	}
	if (error instanceof DOMException && error.name === 'AbortError') {
		return appError('aborted', 'The request was cancelled.');
	}
	const diagnose = () => diagnoseNetworkFailure(new URL(request.url), options.appOrigin, fetchImpl);
	const diagnosis = gate ? await gate.diagnose(diagnose) : await diagnose();
	// A credentialed request that was redirected fails like a network error; say so when the probe saw a live server.
	if (diagnosis.kind === 'cors' && request.credential) {
		return {
			...diagnosis,
			detail:
				'If the service redirected this request, it was stopped on purpose: the app never lets a request that carries the API key follow a redirect.'
		};
	}
	return diagnosis;
}

export type GuardedFetch = ReturnType<typeof createGuardedFetch>;
