/**
 * A Vitest environment for rune stores: Node's globals, but modules are compiled for the client.
 * Svelte compiles `.svelte.ts` for the server when Vite transforms for SSR (the `node` environment
 * does), and the server build of runes runs no effects.
 */
import type { Environment } from 'vitest/environments';

export default {
	name: 'runes',
	viteEnvironment: 'client',
	setup: () => ({ teardown: () => {} })
} satisfies Environment;
