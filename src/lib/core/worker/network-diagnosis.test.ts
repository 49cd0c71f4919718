import { describe, expect, it } from 'vitest';
import { diagnoseNetworkFailure, type FetchLike } from './network-diagnosis';

type Server = 'is down' | 'answers without CORS headers' | 'redirects where a browser cannot follow' | 'redirects so, with CORS headers';

/**
 * A browser's fetch of one server, as the Fetch standard (and Chromium, tried) has it: a `no-cors` fetch
 * that does not follow redirects is a network error, never sent; a redirect not followed is an opaque
 * redirect only in `cors` mode and when the redirect passes the CORS check.
 */
function browser(server: Server): FetchLike {
	return async (_url, init) => {
		const noCors = init?.mode === 'no-cors';
		const follow = (init?.redirect ?? 'follow') === 'follow';
		const answer = (type: ResponseType) => {
			const res = new Response(null, { status: 200 });
			Object.defineProperty(res, 'type', { value: type });
			return res;
		};
		if (noCors && !follow) throw new TypeError('Failed to fetch');
		if (server === 'answers without CORS headers' && noCors) return answer('opaque');
		if (server === 'redirects so, with CORS headers' && !noCors && !follow) return answer('opaqueredirect');
		throw new TypeError('Failed to fetch');
	};
}

const target = new URL('https://service.example/api/object_info');

describe('diagnoseNetworkFailure', () => {
	it.each<[Server, string]>([
		['redirects so, with CORS headers', 'redirect-refused'],
		['is down', 'network'],
		['answers without CORS headers', 'cors'],
		// A browser cannot tell this one from a dead server: it is not called a redirect.
		['redirects where a browser cannot follow', 'network']
	])('a server that %s: %s', async (server, kind) => {
		const error = await diagnoseNetworkFailure(target, 'https://app.example.org', browser(server));
		expect(error.kind).toBe(kind);
		if (kind !== 'network') expect(error.message).not.toMatch(/No answer/);
	});

	it('says a redirect came, not that nothing answered', async () => {
		const error = await diagnoseNetworkFailure(target, 'https://app.example.org', browser('redirects so, with CORS headers'));
		expect(error.message).toMatch(/answered with a redirect the browser cannot follow/);
	});

	it('never asks for a no-cors fetch that does not follow redirects (a browser never sends one)', async () => {
		const asked: RequestInit[] = [];
		const record: FetchLike = async (url, init) => {
			asked.push(init ?? {});
			return browser('is down')(url, init);
		};
		await diagnoseNetworkFailure(target, 'https://app.example.org', record);
		expect(asked.filter((init) => init.mode === 'no-cors' && init.redirect !== 'follow')).toEqual([]);
		expect(asked.some((init) => init.redirect === 'manual')).toBe(true);
	});
});
