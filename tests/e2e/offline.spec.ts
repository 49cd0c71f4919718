import { test as base, expect } from '@playwright/test';
import { createEmulator, DEFAULT_PORTS } from '../../emulator/index';
import { demoConfig, serveApp } from '../../scripts/serve-app';
import { E2E_TIMINGS, runExample } from './fixtures';

// This file's journeys need the service worker, which the suite blocks by default (decision 0058).
base.use({ serviceWorkers: 'allow' });

// This test stops its emulator, so it owns one instead of sharing the worker's.
base(
	'offline, with the service stopped, history, outputs, saved workflows and a schema seen once still open @phone',
	async ({ page, context }) => {
		const emulator = await createEmulator({ ports: Object.fromEntries(Object.keys(DEFAULT_PORTS).map((k) => [k, 0])) });
		const app = await serveApp({ root: 'build', config: demoConfig(emulator, { timings: E2E_TIMINGS }) });
		let stopped = false;
		try {
			await fetch(`${emulator.urls.workflow}/__emulator/workflow/timing`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: '{"stepMs":5}'
			});
			await page.goto(`${app.url}/`);
			await expect.poll(() => page.evaluate(() => navigator.serviceWorker.ready.then(() => true))).toBe(true);
			await runExample(page, 'Text to image');
			// The output shows beside the form too: be on the run's own page before keeping its address.
			await expect(page).toHaveURL(/\/runs\//, { timeout: 15_000 });
			await expect(page.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ })).toBeVisible({ timeout: 20_000 });
			const runUrl = page.url();
			await page.goto(`${app.url}/models/lumen/flux-1`);
			await expect(page.getByRole('form', { name: 'Input of lumen/flux-1' })).toBeVisible({ timeout: 15_000 });

			// The browser offline AND the service stopped: a context's offline switch has not always covered service workers.
			await context.setOffline(true);
			await emulator.close();
			stopped = true;

			await page.goto(`${app.url}/`);
			await expect(page.getByRole('status').filter({ hasText: 'Offline: showing what was saved on this device' })).toBeVisible();
			await page.getByRole('link', { name: 'Run Text to image, succeeded' }).click();
			await expect(page).toHaveURL(runUrl);
			const output = page.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ });
			await expect(output).toBeVisible();
			expect(await output.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(512);

			await page.goto(`${app.url}/models/lumen/flux-1`);
			await expect(page.getByRole('form', { name: 'Input of lumen/flux-1' })).toBeVisible();

			await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
			await page.getByRole('link', { name: 'Text to image' }).first().click();
			await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
			await expect(page.getByText('You are offline: this needs the network.')).toBeVisible();
		} finally {
			await context.setOffline(false);
			if (!stopped) await emulator.close();
			await app.close();
		}
	}
);
