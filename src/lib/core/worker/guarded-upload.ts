/**
 * Uploads with progress. `fetch` cannot report upload progress; XMLHttpRequest can, but cannot
 * refuse redirects. So it is used only for the upload endpoints, which the spec never redirects,
 * behind the same origin guard as every other request, and `responseURL` is checked afterwards.
 */
import { appError, type Result } from '../protocol/errors';
import type { RawResponse } from '../rules/http-response';
import { credentialHeaders, isAllowedUrl, type Credential, type GuardOptions } from './guarded-fetch';
import { diagnoseNetworkFailure } from './network-diagnosis';

export interface UploadRequest {
	url: string;
	form: FormData;
	credential: Credential;
	/** Extra request headers (v2 `Idempotency-Key`). */
	headers?: Record<string, string>;
	onProgress?: (loaded: number, total: number) => void;
	timeoutMs?: number;
	/** Aborts the upload (the user pressed Cancel, or the page went). */
	signal?: AbortSignal;
}

export function createGuardedUpload(options: GuardOptions) {
	return function guardedUpload(request: UploadRequest): Promise<Result<RawResponse>> {
		if (!isAllowedUrl(request.url, options.allowedOrigins)) {
			return Promise.resolve({
				ok: false,
				error: appError('origin-refused', "Refused to upload to an address outside this profile's services.")
			});
		}
		if (request.signal?.aborted) return Promise.resolve({ ok: false, error: cancelled() });
		return new Promise((resolve) => {
			const xhr = new XMLHttpRequest();
			const onAbort = () => xhr.abort();
			request.signal?.addEventListener('abort', onAbort, { once: true });
			xhr.onloadend = () => request.signal?.removeEventListener('abort', onAbort);
			xhr.onabort = () => resolve({ ok: false, error: cancelled() });
			xhr.open('POST', request.url);
			xhr.withCredentials = false;
			xhr.timeout = request.timeoutMs ?? 30 * 60_000;
			for (const [name, value] of Object.entries({ ...request.headers, ...credentialHeaders(request.credential) }))
				xhr.setRequestHeader(name, value);
			xhr.upload.onprogress = (event) => request.onProgress?.(event.loaded, event.lengthComputable ? event.total : 0);
			xhr.onload = () => {
				if (xhr.responseURL && xhr.responseURL !== request.url) {
					resolve({
						ok: false,
						error: appError('redirect-refused', 'The upload was redirected to another address; its answer was ignored.')
					});
					return;
				}
				resolve({ ok: true, value: { status: xhr.status, header: (name) => xhr.getResponseHeader(name), body: xhr.responseText } });
			};
			xhr.ontimeout = () => resolve({ ok: false, error: appError('timeout', 'The upload took too long and was stopped.') });
			xhr.onerror = () => {
				void diagnoseNetworkFailure(new URL(request.url), options.appOrigin, options.fetchImpl ?? ((u, i) => fetch(u, i))).then((error) =>
					resolve({ ok: false, error })
				);
			};
			xhr.send(request.form);
		});
	};
}

function cancelled() {
	return appError('cancelled', 'Cancelled: the upload was stopped before it finished.');
}

export type GuardedUpload = ReturnType<typeof createGuardedUpload>;
