import { describe, expect, it } from 'vitest';
import { createGuardedFetch } from './guarded-fetch';
import { profileOrigins } from '../rules/profile';

interface Seen {
	url: string;
	init: RequestInit | undefined;
}

function recordingFetch(respond: (url: string) => Response | Promise<Response> = () => new Response('{}', { status: 200 })) {
	const seen: Seen[] = [];
	const fetchImpl = async (url: string, init?: RequestInit) => {
		seen.push({ url, init });
		return respond(url);
	};
	return { seen, fetchImpl };
}

const profile = { workflowUrl: 'https://api.example.com', routerUrl: 'https://router.example.com/base' };
const key = { scheme: 'x-api-key', key: 'secret-key' } as const;

describe('the guarded fetch', () => {
	it('sends the key to the profile origins only', async () => {
		const { seen, fetchImpl } = recordingFetch();
		const guarded = createGuardedFetch({ allowedOrigins: profileOrigins(profile), appOrigin: 'https://app.example.org', fetchImpl });
		const ok = await guarded({ url: 'https://router.example.com/base/v2/models', credential: key });
		expect(ok.ok).toBe(true);
		expect(seen).toHaveLength(1);
		expect(new Headers(seen[0]!.init!.headers).get('X-API-Key')).toBe('secret-key');
	});

	it.each([
		'https://storage.example.com/o/abc',
		'https://api.example.com.evil.test/api/object_info',
		'http://api.example.com/api/object_info',
		'https://api.example.com:8443/api/object_info',
		'not a url'
	])('refuses %s before anything is sent', async (url) => {
		const { seen, fetchImpl } = recordingFetch();
		const guarded = createGuardedFetch({ allowedOrigins: profileOrigins(profile), appOrigin: 'https://app.example.org', fetchImpl });
		const result = await guarded({ url, credential: key });
		expect(result).toMatchObject({ ok: false, error: { kind: 'origin-refused' } });
		expect(seen).toHaveLength(0);
	});

	it('never follows redirects and never sends cookies', async () => {
		const { seen, fetchImpl } = recordingFetch();
		const guarded = createGuardedFetch({ allowedOrigins: profileOrigins(profile), appOrigin: 'https://app.example.org', fetchImpl });
		await guarded({ url: 'https://api.example.com/api/view?filename=a.png', credential: { scheme: 'bearer', key: 'k' } });
		expect(seen[0]!.init).toMatchObject({ redirect: 'error', credentials: 'omit' });
		expect(new Headers(seen[0]!.init!.headers).get('Authorization')).toBe('Bearer k');
	});

	it('tells a CORS refusal from a server that is down with a no-cors probe', async () => {
		const corsBlocked = createGuardedFetch({
			allowedOrigins: profileOrigins(profile),
			appOrigin: 'https://app.example.org',
			fetchImpl: async (_url, init) => {
				if (init?.mode === 'no-cors') return new Response(null, { status: 200 });
				throw new TypeError('Failed to fetch');
			}
		});
		expect(await corsBlocked({ url: 'https://api.example.com/api/object_info', credential: null })).toMatchObject({
			ok: false,
			error: { kind: 'cors' }
		});
		const down = createGuardedFetch({
			allowedOrigins: profileOrigins(profile),
			appOrigin: 'https://app.example.org',
			fetchImpl: async () => {
				throw new TypeError('Failed to fetch');
			}
		});
		expect(await down({ url: 'https://api.example.com/api/object_info', credential: null })).toMatchObject({
			ok: false,
			error: { kind: 'network' }
		});
	});

	it('names the local-network permission when a public page cannot reach a loopback server', async () => {
		const local = { workflowUrl: 'http://127.0.0.1:8188', routerUrl: null };
		const guarded = createGuardedFetch({
			allowedOrigins: profileOrigins(local),
			appOrigin: 'https://runboard.example.org',
			fetchImpl: async () => {
				throw new TypeError('Failed to fetch');
			}
		});
		const result = await guarded({ url: 'http://127.0.0.1:8188/api/object_info', credential: null });
		expect(result).toMatchObject({ ok: false, error: { kind: 'local-network' } });
	});
});

describe('following a download redirect', () => {
	it('follows only with a Bearer credential, which browsers drop on a cross-origin hop', async () => {
		const { seen, fetchImpl } = recordingFetch(() => new Response(new Uint8Array([1, 2, 3]), { status: 200 }));
		const guarded = createGuardedFetch({ allowedOrigins: profileOrigins(profile), appOrigin: 'https://app.example.org', fetchImpl });
		const viaBearer = await guarded({
			url: 'https://api.example.com/api/view?filename=a.png',
			credential: { scheme: 'bearer', key: 'k' },
			redirect: 'follow-without-credentials',
			binary: true
		});
		expect(seen[0]!.init).toMatchObject({ redirect: 'follow' });
		expect(viaBearer.ok && viaBearer.value.blob?.size).toBe(3);
		const viaHeader = await guarded({
			url: 'https://api.example.com/api/view?filename=a.png',
			credential: key,
			redirect: 'follow-without-credentials'
		});
		expect(viaHeader).toMatchObject({ ok: false, error: { kind: 'redirect-refused' } });
		expect(seen).toHaveLength(1);
	});
});

describe('the body modes', () => {
	const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff]);
	const guardedOver = (respond: () => Response) =>
		createGuardedFetch({
			allowedOrigins: profileOrigins(profile),
			appOrigin: 'https://app.example.org',
			fetchImpl: recordingFetch(respond).fetchImpl
		});
	const url = 'https://router.example.com/base/v2/models/a/b';

	it.each([
		{ read: 'text' as const, status: 200, blob: undefined, bytes: undefined },
		{ read: 'blob' as const, status: 200, blob: 5, bytes: undefined },
		{ read: 'blob' as const, status: 500, blob: undefined, bytes: undefined },
		{ read: 'bytes' as const, status: 200, blob: undefined, bytes: 5 },
		{ read: 'bytes' as const, status: 500, blob: undefined, bytes: 5 }
	])('read: $read on HTTP $status', async ({ read, status, blob, bytes: size }) => {
		const res = await guardedOver(() => new Response(bytes.slice(), { status }))({ url, credential: key, read });
		if (!res.ok) throw new Error(res.error.message);
		expect(res.value.blob?.size).toBe(blob);
		expect(res.value.bytes?.byteLength).toBe(size);
		if (res.value.bytes) expect([...res.value.bytes]).toEqual([...bytes]);
	});

	it('keeps the text of an error answer read as bytes, for its error type', async () => {
		const body = JSON.stringify({ detail: 'busy', error_type: 'service_unavailable' });
		const res = await guardedOver(() => new Response(body, { status: 503 }))({ url, credential: key, read: 'bytes' });
		expect(res).toMatchObject({ ok: true, value: { status: 503, body } });
	});

	it('names a cancelled request "aborted", not a timeout', async () => {
		const abort = new AbortController();
		const guarded = createGuardedFetch({
			allowedOrigins: profileOrigins(profile),
			appOrigin: 'https://app.example.org',
			fetchImpl: (_url, init) =>
				new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('stop', 'AbortError'))))
		});
		const pending = guarded({ url, credential: key, signal: abort.signal });
		abort.abort();
		expect(await pending).toMatchObject({ ok: false, error: { kind: 'aborted' } });
	});
});
