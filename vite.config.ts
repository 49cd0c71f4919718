import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [sveltekit()],
	// No "slowest plugin callbacks" report on every build: a note newcomers cannot act on (bench/ times builds).
	worker: { format: 'es', rolldownOptions: { checks: { bundlerTimings: false } } },
	build: { target: 'es2022', sourcemap: true, rolldownOptions: { checks: { bundlerTimings: false } } },
	test: {
		testTimeout: 20_000,
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					include: [
						'src/**/*.test.ts',
						'emulator/**/*.test.ts',
						'scripts/**/*.test.ts',
						'tests/fuzz/**/*.test.ts',
						'tests/reporters/**/*.test.ts',
						'bench/**/*.test.ts'
					],
					exclude: ['src/**/*.svelte.test.ts'],
					environment: 'node'
				}
			},
			{
				// Rune stores: compiled as the browser sees them (the server build of Svelte runs no
				// reactivity), in Node, with the worker bridge replaced by a fake in each test.
				extends: true,
				resolve: { conditions: ['browser'] },
				test: {
					name: 'stores',
					include: ['src/**/*.svelte.test.ts'],
					environment: './scripts/vitest-runes-environment.ts'
				}
			}
		]
	}
});
