import { describe, expect, it } from 'vitest';
import { ROUTER_HEADERS } from '../../src/lib/models/protocol/router-api';
import { useRouterEmulator } from './test-helpers';

const api = useRouterEmulator({ resetEachTest: false });

const ORIGIN = 'http://app.test';

describe('router CORS for a browser app on another origin', () => {
	it('answers preflights for the credential, idempotency and revalidation headers without asking for a key', async () => {
		const res = await fetch(`${api.base}/v2/models/lumen/flux-1`, {
			method: 'OPTIONS',
			headers: {
				Origin: ORIGIN,
				'Access-Control-Request-Method': 'POST',
				'Access-Control-Request-Headers': 'x-api-key, authorization, idempotency-key, content-type, if-none-match'
			}
		});
		expect(res.status).toBe(204);
		expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
		expect(res.headers.get('access-control-allow-headers')).toContain('idempotency-key');
		expect(res.headers.get('x-service-request-id')).toMatch(/^[0-9a-f-]{36}$/);
		const put = await fetch(`${api.base}/v2/models/lumen/flux-1/requests/x/cancel`, {
			method: 'OPTIONS',
			headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'PUT' }
		});
		expect(put.headers.get('access-control-allow-methods')).toContain('PUT');
	});

	it('exposes every router header a client reads, on successes, errors and 304s', async () => {
		const exposedOn = (res: Response): string[] => (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
		const wanted = Object.values(ROUTER_HEADERS);
		const ok = await api.get('/v2/models', { Origin: ORIGIN });
		const refused = await fetch(`${api.base}/v2/models`, { headers: { Origin: ORIGIN } });
		expect(refused.status).toBe(401);
		const doc = await api.get('/v2/models/lumen/flux-1/openapi.json', { Origin: ORIGIN });
		const notModified = await api.get('/v2/models/lumen/flux-1/openapi.json', {
			Origin: ORIGIN,
			'If-None-Match': doc.headers.get('etag')!
		});
		expect(notModified.status).toBe(304);
		for (const res of [ok, refused, doc, notModified]) {
			expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
			for (const h of wanted) expect(exposedOn(res)).toContain(h);
		}
		expect(notModified.headers.get('x-service-request-id')).toMatch(/^[0-9a-f-]{36}$/);
	});
});
