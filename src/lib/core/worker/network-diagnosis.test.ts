import { describe, expect, it } from 'vitest';
import { diagnoseNetworkFailure, type FetchLike } from './network-diagnosis';

/** A browser's fetch as the probes see it: what a followed and a manual probe each get. */
function browser(followed: 'fails' | 'answers', manual: 'fails' | 'opaqueredirect' | 'opaque'): FetchLike {
	return async (_url, init) => {
		const outcome = init?.redirect === 'manual' ? manual : followed;
		if (outcome === 'fails') throw new TypeError('Failed to fetch');
		const res = new Response(null, { status: 200 });
		Object.defineProperty(res, 'type', { value: outcome === 'answers' ? 'opaque' : outcome });
		return res;
	};
}

const target = new URL('https://service.example/api/object_info');

describe('diagnoseNetworkFailure', () => {
	it.each([
		['a redirect to a non-http address (ftp:, a custom app scheme)', browser('fails', 'opaqueredirect'), 'redirect-refused'],
		['a server that is down', browser('fails', 'fails'), 'network'],
		['a server that answers without CORS headers', browser('answers', 'opaque'), 'cors']
	])('tells %s from the others', async (_what, fetchImpl, kind) => {
		const error = await diagnoseNetworkFailure(target, 'https://app.example.org', fetchImpl);
		expect(error.kind).toBe(kind);
		if (kind !== 'network') expect(error.message).not.toMatch(/No answer/);
	});

	it('says a redirect came, not that nothing answered', async () => {
		const error = await diagnoseNetworkFailure(target, 'https://app.example.org', browser('fails', 'opaqueredirect'));
		expect(error.message).toMatch(/answered with a redirect the browser cannot follow/);
	});
});
