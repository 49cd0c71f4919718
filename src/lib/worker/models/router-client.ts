/**
 * What every model route needs: the profile's router base URL, its key as a credential and the
 * profile's guarded fetch (router origin only, no redirects). URLs are built here, once.
 */
import { appError, fail, ok, type Result } from '../../domain/errors';
import { modelPath } from '../../domain/model-catalog';
import type { WorkerContext } from '../context';
import { profileOrigins } from '../../domain/profile';
import type { RawResponse } from '../../domain/http-response';
import { createGuardedFetch, type Credential, type GuardedFetch, type GuardedRequest } from '../guarded-fetch';

export interface RouterClient {
	profileId: string;
	base: string;
	credential: Credential;
	fetch: GuardedFetch;
	/** The same guard, answering with the body's bytes as well (results may be binary). */
	fetchBytes(request: GuardedRequest): Promise<Result<BytesResponse>>;
	/** The router's own origin: the only one the key is sent to for queue URLs. */
	origin: string;
}

export interface BytesResponse {
	raw: RawResponse;
	bytes: Uint8Array;
}

export async function routerClient(ctx: WorkerContext, profileId: string): Promise<Result<RouterClient>> {
	const conn = await ctx.connection(profileId);
	if (!conn.ok) return conn;
	const base = conn.value.profile.routerUrl;
	if (!base)
		return fail(appError('invalid-profile', 'This profile has no model router address. Add one in Settings to browse and run models.'));
	const origins = profileOrigins(conn.value.profile);
	return ok({
		profileId,
		base: base.replace(/\/+$/, ''),
		credential: conn.value.key ? { scheme: 'x-api-key', key: conn.value.key } : null,
		fetch: conn.value.fetch,
		fetchBytes: (request) => fetchBytes(origins, ctx.appOrigin, request),
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

/**
 * The profile's guarded fetch (same origin list, no redirects, errors as values) with the body
 * kept as bytes: the guard reads text, so the bytes are taken first and handed back beside it.
 */
async function fetchBytes(origins: string[], appOrigin: string, request: GuardedRequest): Promise<Result<BytesResponse>> {
	let bytes = new Uint8Array(0);
	const guarded = createGuardedFetch({
		allowedOrigins: origins,
		appOrigin,
		fetchImpl: async (input, init) => {
			const res = await fetch(input, init);
			// Probes of the network diagnosis are opaque: pass them on untouched.
			if (res.type === 'opaque' || res.status === 0) return res;
			bytes = new Uint8Array(await res.arrayBuffer());
			const nullBody = res.status === 204 || res.status === 205 || res.status === 304;
			return new Response(nullBody ? null : bytes.slice(), { status: res.status, statusText: res.statusText, headers: res.headers });
		}
	});
	const res = await guarded(request);
	return res.ok ? ok({ raw: res.value, bytes }) : res;
}
