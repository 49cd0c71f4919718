/**
 * The storage origin that signed URLs point at. It serves bytes to anyone holding a valid
 * signature, with `Access-Control-Allow-Origin: *`, and refuses and records every request that
 * carries a credential: the leak log tests read.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { EmulatorState } from '../state';
import { installControlRoutes, CONTROL_PREFIX } from '../control';
import { BlobStore } from './blobs';
import { UrlSigner } from './signing';

const CREDENTIAL_HEADERS = ['x-api-key', 'authorization', 'cookie'];

function credentialsCarried(request: FastifyRequest, apiKey: string): string[] {
	const carried = CREDENTIAL_HEADERS.filter((h) => request.headers[h] !== undefined);
	const requested = String(request.headers['access-control-request-headers'] ?? '').toLowerCase();
	for (const h of CREDENTIAL_HEADERS) if (requested.split(/\s*,\s*/).includes(h)) carried.push(`preflight:${h}`);
	if (request.url.includes(apiKey)) carried.push('api-key-in-url');
	for (const [name, value] of Object.entries(request.headers)) {
		if (typeof value === 'string' && value.includes(apiKey) && !carried.includes(name)) carried.push(`api-key-in:${name}`);
	}
	return carried;
}

/**
 * Records a request that carries any credential in the leak log (which tests read) and says which
 * it carried; an empty list means the request is clean.
 */
export function recordLeak(state: EmulatorState, request: FastifyRequest): string[] {
	const carried = credentialsCarried(request, state.apiKey);
	if (carried.length > 0)
		state.leaks.push({
			at: new Date(state.now()).toISOString(),
			method: request.method,
			url: request.url.replaceAll(state.apiKey, '<api-key>'),
			carried,
			origin: request.headers.origin ?? null
		});
	return carried;
}

export interface StorageService {
	app: FastifyInstance;
	blobs: BlobStore;
	signer: UrlSigner;
	/** The origin, known once listening; set by createEmulator. */
	origin: string;
	/** A signed URL for a stored blob, valid `lifetimeSeconds` from the emulator's now. */
	signedUrl(hash: string, filename: string, lifetimeSeconds: number): string;
}

export function createStorageService(state: EmulatorState): StorageService {
	const app = Fastify({ logger: false, forceCloseConnections: true });
	const blobs = new BlobStore();
	const signer = new UrlSigner();
	state.onReset(() => blobs.clear());
	installControlRoutes(app, state);

	app.addHook('onRequest', async (request, reply) => {
		if (request.url.startsWith(CONTROL_PREFIX)) return;
		reply.header('Access-Control-Allow-Origin', '*');
		if (recordLeak(state, request).length > 0)
			return reply.code(403).type('text/plain').send('credentials are not accepted by the storage host');
		if (request.method === 'OPTIONS') {
			reply.header('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
			const requested = request.headers['access-control-request-headers'];
			if (requested) reply.header('Access-Control-Allow-Headers', String(requested));
			reply.header('Access-Control-Max-Age', '600');
			return reply.code(204).send();
		}
	});

	// /o/<hash>/<filename>?X-Goog-...: the filename is cosmetic, the hash addresses the bytes.
	app.get<{ Params: { hash: string; filename: string } }>('/o/:hash/:filename', async (request, reply) => {
		const url = new URL(request.url, 'http://storage');
		const verdict = signer.verify(url, state.now());
		if (!verdict.ok) {
			const message = { missing: 'missing signature', tampered: 'signature does not match', expired: 'signed URL has expired' }[
				verdict.reason
			];
			return reply
				.code(verdict.reason === 'expired' ? 410 : 403)
				.type('text/plain')
				.send(message);
		}
		const blob = blobs.get(request.params.hash);
		if (!blob) return reply.code(404).type('text/plain').send('no such object');
		reply.header('Cache-Control', 'private, max-age=3600');
		return reply.type(blob.mime).send(Buffer.from(blob.bytes.buffer, blob.bytes.byteOffset, blob.bytes.byteLength));
	});

	const service: StorageService = {
		app,
		blobs,
		signer,
		origin: '',
		signedUrl(hash, filename, lifetimeSeconds) {
			return signer.sign(service.origin, `/o/${encodeURIComponent(hash)}/${encodeURIComponent(filename)}`, lifetimeSeconds, state.now());
		}
	};
	return service;
}
