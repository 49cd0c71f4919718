/**
 * Browsers hide why a request failed: a CORS refusal and a server that is down both surface as
 * one TypeError. A `mode: 'no-cors'` probe tells them apart (it resolves with an opaque answer
 * when the server is up); the page's and the target's addresses tell the rest.
 */
import { appError, type AppError } from '../protocol/errors';
import { isLoopbackOrPrivateHost } from '../rules/profile';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * A redirect to a non-http address (or a loop) fails a followed fetch like a dead server. Asked not to
 * follow it, a browser shows that a redirect came (an opaque redirect), though not where to, but only in
 * `cors` mode and only when the redirect itself carries CORS headers for this app: a `no-cors` fetch that
 * does not follow redirects is a network error the browser never sends (Fetch standard; seen in Chromium).
 * A redirect without CORS headers cannot be told from a dead server in a browser, and is not claimed.
 */
async function answersWithRedirect(target: URL, fetchImpl: FetchLike): Promise<boolean> {
	try {
		const res = await fetchImpl(target.toString(), {
			mode: 'cors',
			credentials: 'omit',
			cache: 'no-store',
			redirect: 'manual',
			signal: AbortSignal.timeout(5000)
		});
		return res.type === 'opaqueredirect';
	} catch {
		return false;
	}
}

export async function diagnoseNetworkFailure(target: URL, appOrigin: string, fetchImpl: FetchLike): Promise<AppError> {
	const app = new URL(appOrigin);
	const targetIsLocal = isLoopbackOrPrivateHost(target.hostname);
	if (app.protocol === 'https:' && target.protocol === 'http:' && !targetIsLocal) {
		return appError(
			'mixed-content',
			`This page is served over https, so the browser blocks the plain-http address ${target.origin}. Use https for the service.`
		);
	}
	let reachable = false;
	try {
		await fetchImpl(target.toString(), {
			mode: 'no-cors',
			credentials: 'omit',
			cache: 'no-store',
			redirect: 'follow',
			signal: AbortSignal.timeout(5000)
		});
		reachable = true;
	} catch {
		reachable = false;
	}
	if (reachable) {
		return appError(
			'cors',
			`${target.origin} answered, but its CORS headers do not allow this app (${app.origin}). ` +
				"A local ComfyUI must be started with --enable-cors-header; a cloud service must list this app's origin."
		);
	}
	if (await answersWithRedirect(target, fetchImpl)) {
		return appError(
			'redirect-refused',
			`${target.origin} answered with a redirect the browser cannot follow (to an address that is not http or https, or in a loop). ` +
				'Check the service address: it may point at a page that sends browsers elsewhere.'
		);
	}
	if (targetIsLocal && !isLoopbackOrPrivateHost(app.hostname)) {
		return appError(
			'local-network',
			`No answer from ${target.origin}. This page is on the internet and the server is on your computer or network: ` +
				'allow "local network access" for this site when the browser asks, and check the server is running.'
		);
	}
	return appError('network', `No answer from ${target.origin}: the server is down, the address is wrong, or the network is offline.`);
}
