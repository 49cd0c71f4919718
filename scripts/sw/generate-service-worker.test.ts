import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateServiceWorker, type GeneratedServiceWorker } from './generate-service-worker';

const SHELL = [
	'index.html',
	'manifest.webmanifest',
	'favicon.svg',
	'icons/icon-192.png',
	'_app/immutable/entry/app.abc123.js',
	'_app/immutable/workers/runboard-worker.def456.js',
	'_app/immutable/assets/0.ghi789.css',
	'_app/immutable/assets/blake3.jkl012.wasm'
];
const NOT_PRECACHED = ['runboard.config.json', '_app/version.json', '_app/immutable/entry/app.abc123.js.map'];

let buildDir: string;
let result: GeneratedServiceWorker;
let sw: string;

beforeAll(async () => {
	buildDir = await mkdtemp(join(tmpdir(), 'build-sw-'));
	for (const file of [...SHELL, ...NOT_PRECACHED]) {
		await mkdir(dirname(join(buildDir, file)), { recursive: true });
		await writeFile(join(buildDir, file), `contents of ${file}`);
	}
	result = await generateServiceWorker(buildDir);
	sw = await readFile(join(buildDir, 'sw.js'), 'utf8');
	// Workbox bundles and minifies the service worker: seconds on a quiet machine, over a minute on a busy one.
}, 240_000);

afterAll(async () => {
	await rm(buildDir, { recursive: true, force: true });
});

/** The precache manifest inlined into sw.js: URL to revision (null for hashed names). */
function precacheEntries(source: string): Map<string, string | null> {
	const entries = source.matchAll(/\{url:"([^"]+)",revision:(?:null|"([0-9a-f]+)")\}/g);
	return new Map([...entries].map((match) => [match[1]!, match[2] ?? null]));
}

function precachedUrls(source: string): string[] {
	return [...precacheEntries(source).keys()].sort();
}

describe('generateServiceWorker', () => {
	it('precaches exactly the app shell: html, js, css, wasm, icons, manifest', () => {
		expect(result.warnings).toEqual([]);
		expect(precachedUrls(sw)).toEqual([...SHELL].sort());
		expect(result.count).toBe(SHELL.length);
	});

	it('never precaches the runtime config, the version file or source maps', () => {
		for (const file of NOT_PRECACHED) expect(precachedUrls(sw)).not.toContain(file);
	});

	it('adds no revision to hashed files, and one to files whose name stays', () => {
		const entries = precacheEntries(sw);
		expect(entries.get('_app/immutable/entry/app.abc123.js')).toBeNull();
		expect(entries.get('index.html')).toMatch(/^[0-9a-f]{32}$/);
		expect(entries.get('manifest.webmanifest')).toMatch(/^[0-9a-f]{32}$/);
	});

	it('waits for the page to post SKIP_WAITING instead of taking over by itself', () => {
		expect(sw).toContain('"SKIP_WAITING"');
		// generateSW's template calls self.skipWaiting() at the top level only when skipWaiting is true.
		expect(sw.match(/skipWaiting\(\)/g)).toHaveLength(1);
		expect(sw).toMatch(/"SKIP_WAITING"===\w+\.data\.type&&self\.skipWaiting\(\)/);
	});

	it('answers navigations with index.html, except the runtime config', () => {
		expect(sw).toContain('"/index.html"');
		expect(sw).toContain('denylist:[/^\\/runboard\\.config\\.json$/]');
	});

	it('is one self-contained file (runtime inlined) with no importScripts', () => {
		expect(sw).not.toContain('importScripts');
	});

	it('keeps cross-origin media (opaque answers included) in the cache the app fills for offline', () => {
		expect(sw).toContain('runboard-model-media');
		expect(sw).toMatch(/statuses:\[0,200\]/);
	});

	it('opens the run of a tapped notification', () => {
		expect(sw).toContain("addEventListener('notificationclick'");
	});
});
