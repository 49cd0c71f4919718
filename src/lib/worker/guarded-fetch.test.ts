import { describe, expect, it } from 'vitest';
import { createGuardedFetch } from './guarded-fetch';
import { profileOrigins } from '../domain/profile';

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
