/**
 * Second half of `npm run build`: after `vite build` has written `build/`, generate `build/sw.js`,
 * a Workbox service worker that precaches the app shell so the app loads offline after one visit.
 *
 * generateSW rather than injectManifest: the worker needs nothing but precaching, the SPA
 * navigation fallback and the SKIP_WAITING message, all of which generateSW writes itself;
 * injectManifest would add a hand-written worker and a second bundling step for no gain.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateSW } from 'workbox-build';
import { RUNTIME_CONFIG_PATH } from '../src/lib/domain/runtime-config';

const buildDir = fileURLToPath(new URL('../build/', import.meta.url));

if (!existsSync(`${buildDir}index.html`)) {
	console.error(`build-sw: ${buildDir}index.html is missing. Run \`vite build\` first (\`npm run build\` does both).`);
	process.exit(1);
}

const { count, size, warnings } = await generateSW({
	globDirectory: buildDir,
	swDest: `${buildDir}sw.js`,
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
	// A chunk left out of the precache breaks the offline shell, so fail (below) rather than skip.
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
	sourcemap: false,
	mode: 'production'
});

for (const warning of warnings) console.error(`build-sw: ${warning}`);
if (warnings.length > 0) {
	console.error('build-sw: the service worker would not precache the whole app shell; fix the warnings above.');
	process.exit(1);
}
console.log(`build-sw: build/sw.js precaches ${count} files, ${(size / 1024).toFixed(1)} KiB.`);
