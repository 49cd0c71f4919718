/** Fails early, with the fix spelled out, when the built app or a browser is missing; then composes Chromium's feature flags for the workers. */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumExecutable, learnDisabledFeatures } from './browser';

export default async function globalSetup(): Promise<void> {
	if (!existsSync('build/index.html')) {
		throw new Error('The end-to-end tests run against the built app: run `npm run build` first (npm test does).');
	}
	if (!chromiumExecutable() && !existsSync(chromium.executablePath())) {
		throw new Error(
			'No Chromium found. On Debian/Ubuntu: `sudo apt-get install chromium` (the tests use /usr/bin/chromium); ' +
				'elsewhere: `npx playwright install chromium`, or set RUNBOARD_CHROMIUM to a Chromium binary.'
		);
	}
	await learnDisabledFeatures(chromiumExecutable());
}
