/**
 * The self-hosted proxy's front door, as observed on the real one: an exact-origin CORS allowlist
 * (another origin gets 403 forbidden_origin with no CORS headers), preflights answered 204 with
 * Authorization, Content-Type and Idempotency-Key allowed, only Retry-After, Content-Range and
 * Accept-Ranges exposed; an optional static token that preflights and /health do not need.
 */
import type { FastifyInstance } from 'fastify';
import { CONTROL_PREFIX } from '../../control';
import { readCredential } from '../../http/credentials';
import type { V2Core } from './core';
import { v2Error } from './envelope';
import { PROXY_EXPOSED_HEADERS } from './surface';

export function isHealthPath(url: string): boolean {
	const path = url.split('?')[0];
	return path === '/health' || path === '/api/v2/health';
}

export function installProxyFrontDoor(app: FastifyInstance, core: V2Core): void {
	app.addHook('onRequest', async (request, reply) => {
		if (request.url.startsWith(CONTROL_PREFIX)) return;
		const origin = request.headers.origin;
		if (origin !== undefined) {
			if (!core.selfHosted.corsOrigins.includes(origin))
				return v2Error(
					reply,
					403,
					'forbidden_origin',
					`The origin ${origin} is not allowed: start the proxy with --enable-cors-header ${origin}.`
				);
			reply.header('Access-Control-Allow-Origin', origin);
			reply.header('Vary', 'Origin');
			reply.header('Access-Control-Expose-Headers', PROXY_EXPOSED_HEADERS.join(', '));
			if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
				reply.header('Access-Control-Allow-Methods', 'GET, POST, DELETE, HEAD, OPTIONS');
				reply.header('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key');
				reply.header('Access-Control-Max-Age', '600');
				return reply.code(204).send();
			}
		}
		if (request.method === 'OPTIONS' || isHealthPath(request.url)) return;
		const token = core.selfHosted.token;
		const credential = readCredential(request);
		if (token !== null && (credential.via !== 'bearer' || credential.value !== token))
			return v2Error(reply, 401, 'unauthorized', 'Send the proxy token as Authorization: Bearer <token>.');
		// The ComfyUI behind it is down (the workflow origin's restart control): the proxy itself still answers, and
		// /health stays 200 "healthy" (as the real proxy: 503 with its own words on every other route).
		if (core.upstreamDown()) return v2Error(reply, 503, 'upstream_unreachable', 'Could not reach ComfyUI.');
	});
}
