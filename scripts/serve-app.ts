/**
 * Serves a built Runboard app from its own origin, with the headers the app needs: the full CSP
 * (workers and the service worker get theirs only from response headers), SPA fallback, and caching
 * that never pins an old shell. Used by `npm start` and by the end-to-end tests, where each worker
 * passes its own `config` to point the app at its own emulator.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';
import { join } from 'node:path';
import { RUNTIME_CONFIG_PATH, type RuntimeConfig } from '../src/lib/core/protocol/runtime-config';
import type { AppTimings } from '../src/lib/core/protocol/app-timings';
import { contentTypeFor } from './serve/mime-types';
import { headerCsp, readMetaCsp } from './serve/page-csp';
import { CACHE_IMMUTABLE, cacheControlFor, securityHeaders } from './serve/response-headers';
import { isSpaRoute, resolveRequestPath } from './serve/resolve-path';

export interface ServeAppOptions {
	/** The build directory (the one holding `index.html`). */
	root: string;
	host?: string;
	/** 0 (the default) picks a free port. */
	port?: number;
	/** Served as `/runboard.config.json` instead of the file on disk. */
	config?: RuntimeConfig;
}

/**
 * The runtime config whose demo profile points at an emulator (as `npm start`, the tests and the
 * benchmarks run it). With `v2`, a second demo profile runs workflows on the emulator's managed v2
 * surface (`/api/v2` on the same workflow origin); the tests leave it out, since most of them count
 * profiles or pick the demo. `timings` sets the app's timers (the tests shorten them); without it the
 * app keeps its own.
 */
export function demoConfig(
	emulator: { urls: { workflow: string; router: string }; apiKey: string },
	options: { v2?: boolean; timings?: AppTimings } = {}
): RuntimeConfig {
	const addresses = { workflowUrl: emulator.urls.workflow, routerUrl: emulator.urls.router, apiKey: emulator.apiKey };
	return {
		demo: { name: 'Demo (local emulator)', ...addresses },
		...(options.v2 ? { demoV2: { name: 'Demo on v2 (managed)', ...addresses } } : {}),
		...(options.timings ? { timings: options.timings } : {})
	};
}

export interface ServedApp {
	/** The origin, without a trailing slash, e.g. `http://127.0.0.1:8710`. */
	url: string;
	close(): Promise<void>;
}

/** Larger content-hashed files (source maps, big chunks) are streamed from disk every time. */
const MAX_HELD_FILE_BYTES = 2 * 1024 * 1024;

interface Body {
	status: number;
	contentType: string;
	cacheControl: string;
	/** A file on disk (streamed unless its bytes are given too), or bytes alone. */
	file?: { path: string; size: number; etag: string; lastModified: Date };
	bytes?: Buffer;
}

async function readIndexCsp(root: string): Promise<string> {
	const indexPath = join(root, 'index.html');
	let html: string;
	try {
		html = await readFile(indexPath, 'utf8');
	} catch (error) {
		throw new Error(`serveApp: cannot read ${indexPath} (${(error as Error).message}). Run \`npm run build\` first.`);
	}
	const metaPolicy = readMetaCsp(html);
	if (metaPolicy === undefined) {
		throw new Error(
			`serveApp: ${indexPath} has no <meta http-equiv="content-security-policy">. ` +
				'Check that kit.csp (hash mode) is set in svelte.config.js and rebuild.'
		);
	}
	return headerCsp(metaPolicy);
}

async function fileBody(urlPath: string, filePath: string): Promise<Body | undefined> {
	const stats = await stat(filePath).catch(() => undefined);
	if (!stats?.isFile()) return undefined;
	return {
		status: 200,
		contentType: contentTypeFor(filePath),
		cacheControl: cacheControlFor(urlPath),
		file: {
			path: filePath,
			size: stats.size,
			etag: `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`,
			lastModified: stats.mtime
		}
	};
}

function textBody(status: number, text: string): Body {
	return { status, contentType: 'text/plain; charset=utf-8', cacheControl: 'no-store', bytes: Buffer.from(text + '\n') };
}

function isFresh(request: IncomingMessage, etag: string): boolean {
	const ifNoneMatch = request.headers['if-none-match'];
	if (ifNoneMatch === undefined) return false;
	const strip = (tag: string) => tag.trim().replace(/^W\//, '');
	return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}

export async function serveApp(options: ServeAppOptions): Promise<ServedApp> {
	const { root, host = '127.0.0.1', port = 0, config } = options;
	const headersForAll = securityHeaders(await readIndexCsp(root));
	const configBytes = config === undefined ? undefined : Buffer.from(JSON.stringify(config, null, '\t') + '\n');
	// Content-hashed files never change while served: each is read from disk once, not at every page load.
	const immutableFiles = new Map<string, Body>();

	async function immutableBody(urlPath: string, filePath: string): Promise<Body | undefined> {
		const known = immutableFiles.get(filePath);
		if (known) return known;
		const body = await fileBody(urlPath, filePath);
		if (!body?.file || body.file.size > MAX_HELD_FILE_BYTES) return body;
		const bytes = await readFile(filePath).catch(() => undefined);
		if (bytes?.length !== body.file.size) return body;
		const held = { ...body, bytes };
		immutableFiles.set(filePath, held);
		return held;
	}

	async function bodyFor(rawPath: string): Promise<Body> {
		const resolved = resolveRequestPath(root, rawPath);
		if (resolved.kind === 'refused') return textBody(resolved.status, `Refused: ${resolved.reason}.`);
		const { urlPath, filePath } = resolved;
		if (urlPath === RUNTIME_CONFIG_PATH && configBytes !== undefined) {
			return { status: 200, contentType: contentTypeFor(urlPath), cacheControl: cacheControlFor(urlPath), bytes: configBytes };
		}
		const asFile = urlPath.endsWith('/')
			? await fileBody(urlPath + 'index.html', join(filePath, 'index.html'))
			: cacheControlFor(urlPath) === CACHE_IMMUTABLE
				? await immutableBody(urlPath, filePath)
				: await fileBody(urlPath, filePath);
		if (asFile) return asFile;
		if (isSpaRoute(urlPath)) {
			const index = await fileBody('/index.html', join(root, 'index.html'));
			if (index) return index;
		}
		return textBody(404, `Not found: ${urlPath}`);
	}

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		for (const [name, value] of Object.entries(headersForAll)) response.setHeader(name, value);
		const method = request.method ?? 'GET';
		if (method !== 'GET' && method !== 'HEAD') {
			response.setHeader('Allow', 'GET, HEAD');
			return send(response, method, textBody(405, `Method ${method} not allowed: this server only serves files.`));
		}
		const rawPath = (request.url ?? '/').split('?')[0]!.split('#')[0]!;
		const body = await bodyFor(rawPath);
		if (body.file) {
			response.setHeader('ETag', body.file.etag);
			response.setHeader('Last-Modified', body.file.lastModified.toUTCString());
			if (isFresh(request, body.file.etag)) {
				response.setHeader('Cache-Control', body.cacheControl);
				response.writeHead(304).end();
				return;
			}
		}
		send(response, method, body);
	}

	function send(response: ServerResponse, method: string, body: Body): void {
		response.setHeader('Content-Type', body.contentType);
		response.setHeader('Cache-Control', body.cacheControl);
		response.setHeader('Content-Length', body.bytes?.length ?? body.file?.size ?? 0);
		response.writeHead(body.status);
		if (method === 'HEAD') {
			response.end();
		} else if (body.file && !body.bytes) {
			// pipeline closes the file when the client goes away mid-download.
			pipeline(createReadStream(body.file.path), response, () => undefined);
		} else {
			response.end(body.bytes);
		}
	}

	const server = createServer((request, response) => {
		handle(request, response).catch((error: unknown) => {
			console.error('serveApp: request failed:', error);
			if (!response.headersSent) send(response, 'GET', textBody(500, 'Internal error while serving the app; see the server log.'));
			else response.destroy();
		});
	});

	await new Promise<void>((resolveListen, rejectListen) => {
		server.once('error', (error: NodeJS.ErrnoException) => {
			rejectListen(
				error.code === 'EADDRINUSE'
					? new Error(`serveApp: port ${port} on ${host} is already in use. Stop the other server or choose another port.`)
					: error
			);
		});
		server.listen(port, host, () => resolveListen());
	});

	const { port: boundPort } = server.address() as AddressInfo;
	const shownHost = host.includes(':') ? `[${host}]` : host;
	return {
		url: `http://${shownHost}:${boundPort}`,
		close: () =>
			new Promise<void>((resolveClose, rejectClose) => {
				server.close((error) => (error ? rejectClose(error) : resolveClose()));
				server.closeAllConnections();
			})
	};
}
