/** The real-server tier (`npm run test:real`): contract tests against a running ComfyUI and proxy, never in CI. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: { include: ['tests/real/**/*.real.test.ts'], environment: 'node', fileParallelism: false, testTimeout: 300_000 }
});
