/**
 * What every model route needs: the profile's router base URL, its key as a credential and the
 * profile's guarded fetch (router origin only, no redirects). URLs are built here, once.
 */
import { credentialFor } from '../../core/rules/credential';
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import { modelPath } from '../rules/model-catalog';
import type { WorkerContext } from '../../core/worker/context';
import type { Credential, GuardedFetch, GuardedRequest } from '../../core/worker/guarded-fetch';
import { ownOrigin, SYNC_TIMEOUT_MS } from '../rules/model-run-reducer';
import type { ModelCall } from '../rules/model-drive';
import { responseError } from '../../core/rules/http-response';
import { withRouterWords } from '../rules/model-errors';
import { decodeQueueCancel } from '../protocol/router-decode';
import type { ModelRun } from '../rules/model-run';
import { ROUTER_REQUEST_HEADERS } from '../protocol/router-api';

export interface RouterClient {
	profileId: string;
	base: string;
	credential: Credential;
	/** The profile's guarded fetch (the injected one); `read: 'bytes'` keeps a result's bytes. */
	fetch: GuardedFetch;
	/** The router's own origin: the only one the key is sent to for queue URLs. */
	origin: string;
}

export async function routerClient(ctx: WorkerContext, profileId: string): Promise<Result<RouterClient>> {
	const conn = await ctx.connection(profileId);
	if (!conn.ok) return conn;
	const base = conn.value.profile.routerUrl;
	if (!base)
		return fail(appError('invalid-profile', 'This profile has no model router address. Add one in Settings to browse and run models.'));
	return ok({
		profileId,
		base: base.replace(/\/+$/, ''),
		credential: credentialFor(conn.value.key, 'x-api-key'),
		fetch: conn.value.fetch,
		origin: new URL(base).origin
	});
}

export function catalogUrl(base: string, cursor: string | undefined, limit: number): string {
	const q = new URLSearchParams({ limit: String(limit) });
	// URLSearchParams percent-encodes the opaque cursor; its value is passed on unchanged.
	if (cursor !== undefined) q.set('cursor', cursor);
	return `${base}/v2/models?${q.toString()}`;
}

export function modelUrl(base: string, modelId: string, suffix = ''): string {
	return `${base}/v2/models/${modelPath(modelId)}${suffix}`;
}

/** The request of each call of a model run; every send carries the run's one idempotency key. */
export function modelRunRequest(call: ModelCall, run: ModelRun, client: Pick<RouterClient, 'base' | 'credential'>): GuardedRequest {
	const { credential } = client;
	if (call === 'status') return { url: run.queue!.statusUrl, credential };
	if (call === 'collect') return { url: run.queue!.responseUrl, credential, read: 'bytes' };
	const headers = { 'Content-Type': 'application/json', [ROUTER_REQUEST_HEADERS.idempotencyKey]: run.idempotencyKey };
	const url = modelUrl(client.base, run.modelId, call === 'submit' ? '/requests' : '');
	const send = { url, method: 'POST' as const, headers, body: JSON.stringify(run.body), credential };
	return call === 'sync' ? { ...send, read: 'bytes', timeoutMs: SYNC_TIMEOUT_MS } : send;
}

/** Asks the queue to cancel a request: 202 requested, 409 already completed; anything else is an error. */
export async function cancelQueued(
	client: RouterClient,
	cancelUrl: string
): Promise<Result<{ status: 202 | 409; cancelStatus: string | undefined }>> {
	const guard = ownOrigin(client.origin, cancelUrl);
	if (guard) return fail(guard);
	const res = await client.fetch({ url: cancelUrl, method: 'PUT', credential: client.credential });
	if (!res.ok) return res;
	const { status, body } = res.value;
	if (status !== 202 && status !== 409) return fail(withRouterWords(responseError(res.value, 'router')));
	return ok({ status, cancelStatus: decodeQueueCancel(body) });
}
