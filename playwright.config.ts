import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable, disabledFeatureArgs } from './tests/browser';

const executablePath = chromiumExecutable();

export default defineConfig({
	testDir: 'tests/e2e',
	fullyParallel: true,
	forbidOnly: true,
	retries: 0,
	workers: 2,
	timeout: 45_000,
	expect: { timeout: 10_000 },
	// Our own reporter beside Playwright's ends every run with the ten slowest tests.
	reporter: process.env['CI']
		? [['list'], ['html', { open: 'never' }], ['./tests/reporters/slowest.ts']]
		: [['list'], ['./tests/reporters/slowest.ts']],
	globalSetup: './tests/global-setup.ts',
	use: {
		// A trace costs a quarter of the suite's CPU (decision 0056): a failure keeps its screenshot, and
		// `npx playwright test <file> --trace on` records one when a failure needs it.
		trace: 'off',
		// The service worker's precache costs every test CPU; the offline and update journeys allow it (decision 0058).
		serviceWorkers: 'block',
		screenshot: 'only-on-failure',
		launchOptions: { ...(executablePath ? { executablePath } : {}), args: [...CHROMIUM_ARGS, ...disabledFeatureArgs()] }
	},
	// Tests are handed out in this order: the phone's few journeys go first, so their long accessibility
	// walk runs beside the desk tests rather than alone at the end of the run.
	projects: [
		// The journeys a phone must manage too (tagged @phone) run again at phone size with touch.
		{ name: 'phone', grep: /@phone/, use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 3 } },
		{ name: 'desk', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } }
	]
});
