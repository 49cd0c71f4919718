/**
 * `npm run screenshots`: the main journeys at desk and phone size, written to screenshots/ (not committed),
 * so anyone can look at the app without running it by hand. Uses the end-to-end fixtures (own emulator).
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable, disabledFeatureArgs } from './tests/browser';

const executablePath = chromiumExecutable();

export default defineConfig({
	testDir: 'tests/screenshots',
	outputDir: 'test-results/screenshots',
	fullyParallel: false,
	workers: 1,
	retries: 0,
	timeout: 120_000,
	expect: { timeout: 20_000 },
	reporter: 'list',
	globalSetup: './tests/global-setup.ts',
	use: {
		launchOptions: { ...(executablePath ? { executablePath } : {}), args: [...CHROMIUM_ARGS, ...disabledFeatureArgs()] },
		colorScheme: 'light'
	},
	projects: [
		{ name: 'desk', use: { viewport: { width: 1280, height: 800 } } },
		{ name: 'phone', use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 } }
	]
});
