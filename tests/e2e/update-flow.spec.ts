import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect } from '@playwright/test';
import { createEmulator, DEFAULT_PORTS } from '../../emulator/index';
import { demoConfig, serveApp } from '../../scripts/serve-app';
import { openExample } from './fixtures';

// This file's journeys need the service worker, which the suite blocks by default (decision 0058).
base.use({ serviceWorkers: 'allow' });

// This test publishes a new version of the app, so it serves its own copy of the build.
base('"update and reload" installs a new version without losing a form being filled', async ({ page }) => {
	const root = await mkdtemp(join(tmpdir(), 'runboard-update-'));
	await cp('build', root, { recursive: true });
	const emulator = await createEmulator({ ports: Object.fromEntries(Object.keys(DEFAULT_PORTS).map((k) => [k, 0])) });
	const app = await serveApp({
		root,
		config: demoConfig(emulator)
	});
	try {
		await page.goto(`${app.url}/`);
		await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
		await openExample(page, 'Text to image');
		const text = page.getByRole('region', { name: 'Node CLIP Text Encode (Positive)' }).getByRole('textbox', { name: 'text' });
		await text.fill('a draft that must survive the update');

		await appendFile(join(root, 'sw.js'), '\n// the next version\n');
		await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
		const banner = page.getByRole('status').filter({ hasText: 'A new version of Runboard is ready.' });
		await expect(banner).toBeVisible({ timeout: 20_000 });
		const reloaded = page.waitForEvent('framenavigated');
		await banner.getByRole('button', { name: 'Update and reload' }).click();
		await reloaded;
		await expect(page.getByRole('region', { name: 'Node CLIP Text Encode (Positive)' }).getByRole('textbox', { name: 'text' })).toHaveValue(
			'a draft that must survive the update'
		);
		await expect(banner).toHaveCount(0);
	} finally {
		await app.close();
		await emulator.close();
		await rm(root, { recursive: true, force: true });
	}
});
