import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/**
 * A pure single-page app: no server rendering, every route served by the fallback page.
 * The static CSP below is a floor for any host; the full policy (frame-ancestors, worker rules)
 * comes as headers from the server (see scripts/serve-app.ts and docs/ARCHITECTURE.md).
 */
/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	compilerOptions: { runes: true },
	kit: {
		adapter: adapter({ pages: 'build', assets: 'build', fallback: 'index.html', strict: true }),
		serviceWorker: { register: false },
		csp: {
			mode: 'hash',
			directives: {
				'default-src': ['self'],
				'script-src': ['self', 'wasm-unsafe-eval'],
				'worker-src': ['self'],
				'style-src': ['self', 'unsafe-inline'],
				'img-src': ['self', 'data:', 'blob:', 'http:', 'https:'],
				'media-src': ['self', 'data:', 'blob:', 'http:', 'https:'],
				'connect-src': ['self', 'blob:', 'http:', 'https:', 'ws:', 'wss:'],
				'manifest-src': ['self'],
				'object-src': ['none'],
				'base-uri': ['self'],
				'form-action': ['self']
			}
		}
	}
};

export default config;
