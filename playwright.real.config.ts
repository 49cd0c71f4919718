/** The browser journeys of the real-server tier (`npm run test:real`): the built app against a real ComfyUI and proxy, never in CI. */
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable, disabledFeatureArgs } from './tests/browser';

const executablePath = chromiumExecutable();

export default defineConfig({
	testDir: 'tests/real',
	testMatch: '**/*.real.spec.ts',
	// One app origin (the one the proxy allows) and one pair of servers: the journeys take turns.
	workers: 1,
	fullyParallel: false,
	forbidOnly: true,
	retries: 0,
	// Real jobs on a CPU-only ComfyUI take tens of seconds, and restarts about as long.
	timeout: 300_000,
	expect: { timeout: 30_000 },
	reporter: [['list']],
	globalSetup: './tests/global-setup.ts',
	use: {
		trace: 'off',
		serviceWorkers: 'block',
		screenshot: 'only-on-failure',
		launchOptions: { ...(executablePath ? { executablePath } : {}), args: [...CHROMIUM_ARGS, ...disabledFeatureArgs()] },
		...devices['Desktop Chrome'],
		viewport: { width: 1280, height: 800 }
	}
});
