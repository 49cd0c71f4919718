import type { Page } from '@playwright/test';
import { test, expect, openExample, workflowControl, runExample } from './fixtures';
import { holdNode, release } from './holds';

// This file's journeys need the service worker, which the suite blocks by default (decision 0058).
test.use({ serviceWorkers: 'allow' });

/** Makes the page report itself hidden, as a backgrounded tab or a locked phone would. */
async function hide(page: Page): Promise<void> {
	await page.evaluate(() => {
		Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
		Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
		document.dispatchEvent(new Event('visibilitychange'));
	});
}

const notificationTitles = (page: Page) =>
	page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => n.title));

test('a notification is shown when a run finishes while the page is hidden @phone', async ({ page, context, openApp, emulator }) => {
	await context.grantPermissions(['notifications']);
	// The run is held in its sampler until the page is hidden.
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/settings');
	const toggle = page.getByRole('checkbox', { name: /Notify me when a run finishes/ });
	await toggle.check();
	await expect(toggle).toBeChecked();

	await openExample(page, 'Text to image');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await expect(page.getByRole('link', { name: 'Open run Text to image' })).toBeVisible();
	await hide(page);
	await release(emulator);
	await expect.poll(() => notificationTitles(page), { timeout: 20_000 }).toContain('Text to image finished');
});

test('no notification for a run that finishes while the page is in view', async ({ page, context, openApp, emulator }) => {
	await context.grantPermissions(['notifications']);
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/settings');
	await page.getByRole('checkbox', { name: /Notify me when a run finishes/ }).check();
	await runExample(page, 'Text to image');
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	expect(await notificationTitles(page)).toEqual([]);
});
