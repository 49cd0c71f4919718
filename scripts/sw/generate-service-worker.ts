/**
 * Writes `sw.js` into a finished build: a Workbox service worker that precaches the app shell so the
 * app loads offline after one visit.
 *
 * generateSW rather than injectManifest: the worker needs nothing but precaching, the SPA
 * navigation fallback and the SKIP_WAITING message, all of which generateSW writes itself;
 * injectManifest would add a hand-written worker and a second bundling step for no gain.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSW } from 'workbox-build';
import { RUNTIME_CONFIG_PATH } from '../../src/lib/core/protocol/runtime-config';

export interface GeneratedServiceWorker {
	count: number;
	size: number;
	warnings: string[];
}

export async function generateServiceWorker(buildDir: string): Promise<GeneratedServiceWorker> {
	const { count, size, warnings } = await generateSW({
		globDirectory: buildDir,
		swDest: join(buildDir, 'sw.js'),
		globPatterns: ['**/*.{html,js,css,wasm,png,svg,ico,webp,avif,woff2,webmanifest}'],
		globIgnores: [
			'sw.js',
			'**/*.map',
			// Per-install and absent from a hosted build: fetched from the network every time.
			RUNTIME_CONFIG_PATH.slice(1),
			// SvelteKit's update check must see the server's version, never a precached copy.
			'_app/version.json'
		],
		// Hashed file names change with their content, so Workbox need not add a revision to them.
		dontCacheBustURLsMatching: /^_app\/immutable\//,
		// A chunk left out of the precache breaks the offline shell: the caller fails on the warning.
		maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
		navigateFallback: '/index.html',
		navigateFallbackDenylist: [new RegExp(`^${RUNTIME_CONFIG_PATH.replace(/\./g, '\\.')}$`)],
		cleanupOutdatedCaches: true,
		// The page shows "update available, reload" and posts {type: 'SKIP_WAITING'}; generateSW answers it.
		skipWaiting: false,
		// The first visit's page is controlled at once, so "ready to work offline" is true when shown.
		clientsClaim: true,
		// One file, so hosting needs one no-cache rule (sw.js) and no workbox-*.js beside it.
		inlineWorkboxRuntime: true,
		// Model results on a provider host that sends no CORS headers can only be shown by <img>/<video>/
		// <audio>; the app keeps them as opaque responses in this cache so they still show offline.
		runtimeCaching: [
			{
				urlPattern: ({ request, url }) => url.origin !== self.location.origin && ['image', 'video', 'audio'].includes(request.destination),
				handler: 'CacheFirst',
				options: {
					cacheName: 'runboard-model-media',
					cacheableResponse: { statuses: [0, 200] },
					expiration: { maxEntries: 500, purgeOnQuotaError: true }
				}
			}
		],
		sourcemap: false,
		mode: 'production'
	});
	// generateSW has no hook for other events; appending keeps sw.js one self-contained file.
	const clickHandler = await readFile(join(dirname(fileURLToPath(import.meta.url)), 'notification-click.js'), 'utf8');
	await appendFile(join(buildDir, 'sw.js'), `\n${clickHandler}`);
	return { count, size, warnings };
}
