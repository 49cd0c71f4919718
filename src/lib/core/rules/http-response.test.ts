import { describe, expect, it } from 'vitest';
import { readJson } from './http-response';

function raw(status: number, body: string, headers: Record<string, string> = {}) {
	const h = new Headers(headers);
	return { status, body, header: (name: string) => h.get(name) };
}

describe('reading service responses', () => {
	it('returns the JSON of a 2xx answer', () => {
		expect(readJson(raw(200, '{"a":1}'), 'workflow')).toEqual({ ok: true, value: { a: 1 } });
	});

	it('names an HTML proxy page and keeps status and request id', () => {
		const result = readJson(
			raw(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', { 'Content-Type': 'text/html', 'X-Service-Request-Id': 'r-1' }),
			'router'
		);
		expect(result).toMatchObject({ ok: false, error: { kind: 'html-response', status: 502, requestId: 'r-1', detail: '502 Bad Gateway' } });
	});

	it('reports truncated JSON in a 2xx answer as a bad response', () => {
		expect(readJson(raw(200, '{"data":[{"id'), 'router')).toMatchObject({ ok: false, error: { kind: 'bad-response', status: 200 } });
	});

	it('branches on the router error type from the header, falling back to the body', () => {
		expect(readJson(raw(403, '{"detail":"x","error_type":"not_enabled"}'), 'router')).toMatchObject({
			ok: false,
			error: { kind: 'not-enabled', errorType: 'not_enabled', detail: 'x' }
		});
		expect(readJson(raw(403, 'garbled', { 'X-Service-Error-Type': 'forbidden' }), 'router')).toMatchObject({
			ok: false,
			error: { kind: 'forbidden', errorType: 'forbidden', detail: 'garbled' }
		});
	});

	it('keeps an unknown error type verbatim while treating it by status', () => {
		expect(readJson(raw(500, '{"detail":"?","error_type":"quantum_flux"}'), 'router')).toMatchObject({
			ok: false,
			error: { kind: 'server', errorType: 'quantum_flux' }
		});
	});

	it('maps the workflow service statuses to what a person can do', () => {
		expect(readJson(raw(402, '{}'), 'workflow')).toMatchObject({ error: { kind: 'no-credits' } });
		expect(readJson(raw(429, '{}'), 'workflow')).toMatchObject({ error: { kind: 'inactive-subscription' } });
		expect(readJson(raw(429, '{}'), 'router')).toMatchObject({ error: { kind: 'rate-limited' } });
		expect(readJson(raw(401, '{"code":"unauthorized","message":"Invalid API key."}'), 'workflow')).toMatchObject({
			error: { kind: 'unauthorized', detail: 'Invalid API key.' }
		});
	});

	it('says "request id not available" for the router, which promises one, rather than inventing one', async () => {
		const { describeError } = await import('../protocol/errors');
		const result = readJson(raw(500, 'oops'), 'router');
		expect(!result.ok && describeError(result.error, { requestIdPromised: true })).toContain('request id not available');
	});

	it('says nothing of request ids for a workflow server, which never sends them', async () => {
		const { describeError } = await import('../protocol/errors');
		const result = readJson(raw(500, 'oops'), 'workflow');
		expect(!result.ok && describeError(result.error)).not.toContain('request id');
	});
});
