/**
 * A provider's CDN: the fourth origin. It serves result assets the router did not copy, signed the
 * way CloudFront signs (`Expires` in unix seconds, `Signature`, `Key-Pair-Id`), and sends NO CORS
 * headers at all, so a browser page cannot read these bytes with fetch. Credentials sent here are
 * refused and recorded in the shared leak log, as the storage origin does.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { EmulatorState } from '../state';
import type { BlobStore } from '../storage/blobs';
import { recordLeak } from '../storage/server';
import { CONTROL_PREFIX, installControlRoutes } from '../control';

export const CDN_KEY_PAIR_ID = 'K2EMULATORCDN';

export interface CdnService {
	app: FastifyInstance;
	origin: string;
	/** A signed CDN URL for a stored blob, valid `lifetimeSeconds` from the emulator's now. */
	signedUrl(hash: string, filename: string, lifetimeSeconds: number): string;
}

export function createCdnService(state: EmulatorState, blobs: BlobStore): CdnService {
	const app = Fastify({ logger: false, forceCloseConnections: true });
	const secret = randomBytes(32);
	const mac = (path: string, expires: string): string => createHmac('sha256', secret).update(`${path}\n${expires}`).digest('base64url');
	installControlRoutes(app, state);

	app.addHook('onRequest', async (request, reply) => {
		if (request.url.startsWith(CONTROL_PREFIX)) return;
		if (recordLeak(state, request).length === 0) return;
		return reply.code(403).type('text/plain').send('credentials are not accepted by the CDN');
	});

	app.get<{ Params: { hash: string; filename: string } }>('/assets/:hash/:filename', async (request, reply) => {
		const url = new URL(request.url, 'http://cdn');
		const expires = url.searchParams.get('Expires') ?? '';
		const signature = Buffer.from(url.searchParams.get('Signature') ?? '');
		const expected = Buffer.from(mac(url.pathname, expires));
		if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
			return reply.code(403).type('application/xml').send('<Error><Code>AccessDenied</Code><Message>Invalid signature</Message></Error>');
		}
		if (Number(expires) * 1000 < state.now()) {
			return reply.code(403).type('application/xml').send('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
		}
		const blob = blobs.get(request.params.hash);
		if (!blob) return reply.code(404).type('application/xml').send('<Error><Code>NoSuchKey</Code></Error>');
		reply.header('Cache-Control', 'public, max-age=86400').header('X-Cache', 'Hit from cloudfront');
		return reply.type(blob.mime).send(Buffer.from(blob.bytes.buffer, blob.bytes.byteOffset, blob.bytes.byteLength));
	});

	const service: CdnService = {
		app,
		origin: '',
		signedUrl(hash, filename, lifetimeSeconds) {
			const path = `/assets/${encodeURIComponent(hash)}/${encodeURIComponent(filename)}`;
			const expires = String(Math.floor(state.now() / 1000) + Math.max(1, Math.floor(lifetimeSeconds)));
			const url = new URL(path, service.origin);
			url.searchParams.set('Expires', expires);
			url.searchParams.set('Signature', mac(url.pathname, expires));
			url.searchParams.set('Key-Pair-Id', CDN_KEY_PAIR_ID);
			return url.toString();
		}
	};
	return service;
}
