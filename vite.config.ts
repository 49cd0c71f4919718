import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [sveltekit()],
	worker: { format: 'es' },
	build: { target: 'es2022', sourcemap: true },
	test: {
		include: ['src/**/*.test.ts', 'emulator/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/fuzz/**/*.test.ts'],
		environment: 'node',
		testTimeout: 20_000
	}
});
