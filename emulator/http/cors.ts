/**
 * CORS for a browser app on another origin, on every answer including errors and preflights.
 * The emulator allows any Origin (a hosted app and a local one alike); a real deployment would
 * list its app origins. Every header a client must read is exposed.
 */
import type { FastifyInstance } from 'fastify';

export const EXPOSED_HEADERS = [
	'X-Service-Request-Id',
	'X-Service-Error-Type',
	'X-Service-Upstream-Status',
	'X-Service-Credits-Used',
	'X-Committed-Spend-Limit',
	'X-Committed-Spend-Current',
	'X-Committed-Spend-Remaining',
	'Idempotent-Replayed',
	'Idempotency-Replayed',
	'Content-Range',
	'Accept-Ranges',
	'Location',
	'Retry-After',
	'ETag',
	'Cache-Control',
	'Content-Type',
	'Content-Length',
	'X-Content-Type-Options',
	'X-Request-Id'
];

export const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';

export interface CorsOptions {
	/** When false for a request, no CORS header is sent (a local runtime's router 404s). */
	enabled?: (url: string) => boolean;
}

export function installCors(app: FastifyInstance, options: CorsOptions = {}): void {
	app.addHook('onRequest', async (request, reply) => {
		const origin = request.headers.origin;
		if (!origin) return;
		if (options.enabled && !options.enabled(request.url)) return;
		reply.header('Access-Control-Allow-Origin', origin);
		reply.header('Vary', 'Origin');
		reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', '));
		if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
			reply.header('Access-Control-Allow-Methods', ALLOWED_METHODS);
			const requested = request.headers['access-control-request-headers'];
			if (requested) reply.header('Access-Control-Allow-Headers', requested);
			reply.header('Access-Control-Max-Age', '600');
			// Chromium's Private Network Access preflight for a public page reaching loopback.
			if (request.headers['access-control-request-private-network']) {
				reply.header('Access-Control-Allow-Private-Network', 'true');
			}
			return reply.code(204).send();
		}
	});
}
