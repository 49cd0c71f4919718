/**
 * A local ComfyUI started without `--enable-cors-header` (its default): no CORS header on any
 * answer, and its origin-only middleware refuses with a bare 403 every request that the browser
 * marks `Sec-Fetch-Site: cross-site`, or whose `Origin` names another host:port than `Host` when
 * `Host` is a loopback address (ComfyUI's CSRF guard), WebSocket upgrades included. A request
 * without `Origin` (a no-cors GET, curl) is served as usual.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { CONTROL_PREFIX } from '../control';

export interface CorsHeaderSetting {
	/** False: the server runs as ComfyUI does without `--enable-cors-header`. */
	enableCorsHeader: boolean;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function hostName(hostPort: string): string {
	return hostPort.startsWith('[') ? hostPort.slice(0, hostPort.indexOf(']') + 1) : (hostPort.split(':')[0] ?? '');
}

/** ComfyUI's `origin_only_middleware`: true when the request must be refused with 403. */
export function refusedByOriginCheck(headers: IncomingHttpHeaders): boolean {
	if (headers['sec-fetch-site'] === 'cross-site') return true;
	const host = headers.host?.toLowerCase();
	const origin = headers.origin;
	if (!host || !origin) return false;
	let originHost: string;
	try {
		originHost = new URL(origin).host.toLowerCase();
	} catch {
		originHost = '';
	}
	return LOOPBACK_HOSTS.has(hostName(host)) && originHost !== host;
}

/** Whether a request (or a socket upgrade) is refused under the setting. */
export function refusedOrigin(setting: CorsHeaderSetting, headers: IncomingHttpHeaders): boolean {
	return !setting.enableCorsHeader && refusedByOriginCheck(headers);
}

/** Install before the CORS hook, and give that hook `enabled: () => setting.enableCorsHeader`. */
export function installOriginCheck(app: FastifyInstance, setting: CorsHeaderSetting): void {
	app.addHook('onRequest', async (request, reply) => {
		if (request.url.startsWith(CONTROL_PREFIX)) return;
		if (refusedOrigin(setting, request.headers)) return reply.code(403).type('text/plain; charset=utf-8').send('403: Forbidden');
	});
}
