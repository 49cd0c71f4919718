import { sveltekit } from '@sveltejs/kit/vite';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { isolatedTestFiles, testFiles } from './scripts/vitest-isolation.ts';

const UNIT_FOLDERS = ['src', 'emulator', 'scripts', 'tests/fuzz', 'tests/reporters', 'bench'];
const unitFiles = testFiles(import.meta.dirname, UNIT_FOLDERS).filter((file) => !file.endsWith('.svelte.test.ts'));
const isolatedUnitFiles = isolatedTestFiles(import.meta.dirname, unitFiles);

export default defineConfig({
	plugins: [sveltekit()],
	// No "slowest plugin callbacks" report on every build: a note newcomers cannot act on (bench/ times builds).
	worker: { format: 'es', rolldownOptions: { checks: { bundlerTimings: false } } },
	build: { target: 'es2022', sourcemap: true, rolldownOptions: { checks: { bundlerTimings: false } } },
	test: {
		testTimeout: 20_000,
		// Vitest's default is one worker per core minus one: a single worker on 2 cores. The unit files
		// mostly wait (emulators, sharp's threads, timers), so one more worker than cores keeps both busy
		// (on 2 cores: 139 s with one worker, 51 s with two, 38 s with three).
		maxWorkers: availableParallelism() + 1,
		projects: [
			{
				extends: true,
				// Files share a worker's module registry (see scripts/vitest-isolation.ts), except those that mock.
				test: {
					name: 'unit',
					include: UNIT_FOLDERS.map((folder) => `${folder}/**/*.test.ts`),
					exclude: ['src/**/*.svelte.test.ts', ...isolatedUnitFiles],
					environment: 'node',
					isolate: false
				}
			},
			{
				extends: true,
				test: { name: 'unit-isolated', include: isolatedUnitFiles, environment: 'node' }
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
