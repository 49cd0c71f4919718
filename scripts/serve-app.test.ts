import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from '../src/lib/core/protocol/runtime-config';
import { demoConfig, serveApp, type ServedApp } from './serve-app';
import { headerCsp, readMetaCsp } from './serve/page-csp';
import { DEFAULT_TIMINGS } from '../src/lib/core/protocol/app-timings';

const META_POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-abc='; object-src 'none'";
const EXPECTED_HEADER_POLICY = `${META_POLICY}; frame-ancestors 'none'`;
const INDEX_HTML = `<!doctype html><html><head>
<meta charset="utf-8" />
<meta http-equiv="content-security-policy" content="${META_POLICY}">
</head><body><script>boot()</script></body></html>`;
const DISK_CONFIG = { demo: { name: 'From disk', workflowUrl: 'http://127.0.0.1:1', routerUrl: 'http://127.0.0.1:2', apiKey: 'disk' } };

interface Reply {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/** A raw request: unlike fetch, it sends the path exactly as written (no `..` normalisation). */
function send(base: string, path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
	const { hostname, port } = new URL(base);
	return new Promise((resolve, reject) => {
		const req = request({ hostname, port, path, method: init.method ?? 'GET', headers: init.headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
		});
		req.on('error', reject);
		req.end();
	});
}

async function writeFixture(dir: string, withDiskConfig: boolean): Promise<void> {
	await mkdir(join(dir, '_app/immutable/entry'), { recursive: true });
	await writeFile(join(dir, 'index.html'), INDEX_HTML);
	await writeFile(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
	await writeFile(join(dir, 'manifest.webmanifest'), '{"name":"Runboard"}');
	await writeFile(join(dir, 'module.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
	await writeFile(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
	await writeFile(join(dir, '_app/immutable/entry/app.abc123.js'), 'export const app = 1;');
	await writeFile(join(dir, '_app/version.json'), '{"version":"1"}');
	if (withDiskConfig) await writeFile(join(dir, 'runboard.config.json'), JSON.stringify(DISK_CONFIG));
}

let tmp: string;
let root: string;
let app: ServedApp;

beforeAll(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'serve-app-'));
	root = join(tmp, 'build');
	await mkdir(root);
	await writeFixture(root, true);
	await writeFile(join(tmp, 'secret.txt'), 'TOP SECRET');
	app = await serveApp({ root });
});

afterAll(async () => {
	await app?.close();
	await rm(tmp, { recursive: true, force: true });
});

describe('page CSP', () => {
	it('reads the policy from the meta tag, whatever the attribute order and quoting', () => {
		expect(readMetaCsp(INDEX_HTML)).toBe(META_POLICY);
		expect(readMetaCsp(`<meta content='a &amp; b' HTTP-EQUIV="Content-Security-Policy">`)).toBe('a & b');
		expect(readMetaCsp('<meta name="viewport" content="width=device-width">')).toBeUndefined();
	});

	it('adds frame-ancestors once, replacing any the meta policy carried', () => {
		expect(headerCsp(`${META_POLICY};`)).toBe(EXPECTED_HEADER_POLICY);
		expect(headerCsp("default-src 'self'; frame-ancestors *")).toBe("default-src 'self'; frame-ancestors 'none'");
	});
});

describe('serveApp', () => {
	it('serves index.html at / with the full CSP header and no-cache', async () => {
		const reply = await send(app.url, '/');
		expect(reply.status).toBe(200);
		expect(reply.body).toBe(INDEX_HTML);
		expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(reply.headers['cache-control']).toBe('no-cache');
		expect(reply.headers['content-security-policy']).toBe(EXPECTED_HEADER_POLICY);
	});

	it.each([
		['/sw.js', 'text/javascript; charset=utf-8', 'no-cache'],
		['/manifest.webmanifest', 'application/manifest+json; charset=utf-8', 'no-cache'],
		['/module.wasm', 'application/wasm', 'no-cache'],
		['/favicon.svg', 'image/svg+xml', 'no-cache'],
		['/_app/version.json', 'application/json; charset=utf-8', 'no-cache'],
		['/_app/immutable/entry/app.abc123.js', 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable']
	])('serves %s as %s with Cache-Control %s', async (path, contentType, cacheControl) => {
		const reply = await send(app.url, path);
		expect(reply.status).toBe(200);
		expect(reply.headers['content-type']).toBe(contentType);
		expect(reply.headers['cache-control']).toBe(cacheControl);
	});

	it.each(['/', '/sw.js', '/_app/immutable/entry/app.abc123.js', '/missing.png', '/runboard.config.json', '/%2e%2e/secret.txt'])(
		'sends the security headers on %s',
		async (path) => {
			const { headers } = await send(app.url, path);
			expect(headers['content-security-policy']).toBe(EXPECTED_HEADER_POLICY);
			expect(headers['x-content-type-options']).toBe('nosniff');
			expect(headers['referrer-policy']).toBe('no-referrer');
			expect(headers['permissions-policy']).toContain('camera=()');
			expect(headers['permissions-policy']).not.toContain('clipboard');
		}
	);

	it('falls back to index.html for client-side routes', async () => {
		for (const path of ['/runs', '/runs/6f1c2d', '/settings/profiles/', '/models?tab=all']) {
			const reply = await send(app.url, path);
			expect(reply.status, path).toBe(200);
			expect(reply.body, path).toBe(INDEX_HTML);
			expect(reply.headers['cache-control'], path).toBe('no-cache');
		}
	});

	it('answers 404, not HTML, for a missing asset', async () => {
		for (const path of ['/missing.png', '/_app/immutable/entry/gone.js', '/_app/immutable/chunks', '/icons/icon-512.png']) {
			const reply = await send(app.url, path);
			expect(reply.status, path).toBe(404);
			expect(reply.headers['content-type'], path).toBe('text/plain; charset=utf-8');
		}
	});

	it('serves the runtime config from disk when no config object is given', async () => {
		const reply = await send(app.url, '/runboard.config.json');
		expect(reply.status).toBe(200);
		expect(JSON.parse(reply.body)).toEqual(DISK_CONFIG);
		expect(reply.headers['cache-control']).toBe('no-cache');
	});

	it('serves the config object instead of the file on disk', async () => {
		const config = { demo: { name: 'Worker 3', workflowUrl: 'http://127.0.0.1:40001', routerUrl: 'http://127.0.0.1:40002', apiKey: 'k3' } };
		const own = await serveApp({ root, config });
		try {
			const reply = await send(own.url, '/runboard.config.json');
			expect(reply.status).toBe(200);
			expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
			expect(reply.headers['cache-control']).toBe('no-cache');
			expect(JSON.parse(reply.body)).toEqual(config);
		} finally {
			await own.close();
		}
	});

	it('answers 404 for the runtime config when there is neither a file nor an object (a hosted build)', async () => {
		const hostedRoot = join(tmp, 'hosted');
		await mkdir(hostedRoot);
		await writeFixture(hostedRoot, false);
		const hosted = await serveApp({ root: hostedRoot });
		try {
			expect((await send(hosted.url, '/runboard.config.json')).status).toBe(404);
		} finally {
			await hosted.close();
		}
	});

	it.each([
		'/../secret.txt',
		'/%2e%2e/secret.txt',
		'/%2E%2E%2Fsecret.txt',
		'/_app/..%2f..%2fsecret.txt',
		'/..%5csecret.txt',
		'/index.html%00.png',
		'//../secret.txt'
	])('refuses path traversal: %s', async (path) => {
		const reply = await send(app.url, path);
		expect([400, 403]).toContain(reply.status);
		expect(reply.body).not.toContain('TOP SECRET');
	});

	it('answers 400 for malformed percent-encoding', async () => {
		expect((await send(app.url, '/%E0%A4%A')).status).toBe(400);
	});

	it('answers HEAD without a body and refuses other methods', async () => {
		const head = await send(app.url, '/sw.js', { method: 'HEAD' });
		expect(head.status).toBe(200);
		expect(head.body).toBe('');
		expect(head.headers['content-length']).toBe(String('self.addEventListener("fetch", () => {});'.length));
		const post = await send(app.url, '/', { method: 'POST' });
		expect(post.status).toBe(405);
		expect(post.headers['allow']).toBe('GET, HEAD');
	});

	it('reads a content-hashed file from disk once and serves it from memory after that', async () => {
		const path = '/_app/immutable/entry/held.def456.js';
		await writeFile(join(root, path), 'export const held = 1;');
		const first = await send(app.url, path);
		await rm(join(root, path));
		const second = await send(app.url, path);
		expect(second.status).toBe(200);
		expect(second.body).toBe(first.body);
		expect(second.headers['content-length']).toBe(String('export const held = 1;'.length));
		expect(second.headers['etag']).toBe(first.headers['etag']);
	});

	it('reads a file that is not content-hashed again at every request', async () => {
		await writeFile(join(root, 'robots.txt'), 'one');
		expect((await send(app.url, '/robots.txt')).body).toBe('one');
		await writeFile(join(root, 'robots.txt'), 'two!');
		expect((await send(app.url, '/robots.txt')).body).toBe('two!');
	});

	it('answers 304 to a matching If-None-Match', async () => {
		const first = await send(app.url, '/sw.js');
		const etag = first.headers['etag'];
		expect(typeof etag).toBe('string');
		const second = await send(app.url, '/sw.js', { headers: { 'If-None-Match': etag as string } });
		expect(second.status).toBe(304);
		expect(second.body).toBe('');
		expect(second.headers['cache-control']).toBe('no-cache');
		expect(second.headers['content-security-policy']).toBe(EXPECTED_HEADER_POLICY);
	});

	it('refuses to start on a directory without a built index.html', async () => {
		const empty = join(tmp, 'empty');
		await mkdir(empty);
		await expect(serveApp({ root: empty })).rejects.toThrow(/npm run build/);
	});

	it('refuses to start when index.html carries no CSP meta tag', async () => {
		const noCsp = join(tmp, 'no-csp');
		await mkdir(noCsp);
		await writeFile(join(noCsp, 'index.html'), '<!doctype html><title>x</title>');
		await expect(serveApp({ root: noCsp })).rejects.toThrow(/kit\.csp/);
	});

	it('says so when the port is taken', async () => {
		const port = Number(new URL(app.url).port);
		await expect(serveApp({ root, port })).rejects.toThrow(/already in use/);
	});
});

describe('demoConfig', () => {
	const emulator = { urls: { workflow: 'http://127.0.0.1:8711', router: 'http://127.0.0.1:8712' }, apiKey: 'demo-key' };

	it('names the v1 demo only for the tests, and the v2 (managed) demo beside it for `npm start`', () => {
		expect(demoConfig(emulator)).toEqual({
			demo: { name: 'Demo (local emulator)', workflowUrl: 'http://127.0.0.1:8711', routerUrl: 'http://127.0.0.1:8712', apiKey: 'demo-key' }
		});
		expect(demoConfig(emulator, { v2: true }).demoV2).toEqual({
			name: 'Demo on v2 (managed)',
			workflowUrl: 'http://127.0.0.1:8711',
			routerUrl: 'http://127.0.0.1:8712',
			apiKey: 'demo-key'
		});
	});

	it('writes what the app reads back unchanged', () => {
		const config = demoConfig(emulator, { v2: true });
		expect(parseRuntimeConfig(JSON.stringify(config))).toEqual({ ok: true, config });
	});

	it('sets the app’s timers only when asked (the tests shorten them; `npm start` keeps the product’s)', () => {
		expect(demoConfig(emulator, { v2: true })).not.toHaveProperty('timings');
		const timings = { ...DEFAULT_TIMINGS, undoMs: 1500 };
		const config = demoConfig(emulator, { timings });
		expect(config.timings).toEqual(timings);
		expect(parseRuntimeConfig(JSON.stringify(config))).toEqual({ ok: true, config });
	});
});
