import type { Page } from '@playwright/test';
import { test, expect, untilShellCached } from './fixtures';
import { counters, latestModelRun, routerControl } from './models-helpers';

// This file's journeys need the service worker, which the suite blocks by default (decision 0058).
test.use({ serviceWorkers: 'allow' });

const totalDispatches = async (emulator: Parameters<typeof counters>[0]) =>
	Object.values((await counters(emulator)).dispatches).reduce((a, b) => a + b, 0);

const form = (page: Page) => page.getByRole('form', { name: 'Input of lumen/flux-1' });

test('a model request composed offline waits in the outbox and is sent exactly once when back online, by one of two tabs @phone', async ({
	page,
	context,
	openApp,
	emulator
}) => {
	await routerControl(emulator, 'settings', { providerMs: 300 });
	await openApp('/models/lumen/flux-1');
	await expect(form(page)).toBeVisible({ timeout: 15_000 });
	const second = await context.newPage();
	await second.goto(page.url());
	await expect(form(second)).toBeVisible({ timeout: 15_000 });

	await untilShellCached(page);
	await context.setOffline(true);
	await expect(page.getByRole('status').filter({ hasText: 'Offline: showing what was saved on this device' })).toBeVisible();
	// The header says so too: the socket may still look open, but nothing comes through it.
	await expect(page.getByRole('link', { name: /^Connection: .*, Offline\. Open settings$/ })).toBeVisible();
	await form(page).getByRole('textbox', { name: 'Prompt', exact: true }).fill('A paper boat, composed offline');
	await form(page).getByRole('button', { name: 'Run when back online' }).click();
	await expect(latestModelRun(page)).toContainText('In the outbox');
	// Nothing is sent, so nothing says it is sending or counts a wait.
	await expect(latestModelRun(page).getByRole('status')).toHaveText('In the outbox');
	await expect(latestModelRun(page)).toContainText('Run now · not sent yet');
	expect(await totalDispatches(emulator)).toBe(0);

	await context.setOffline(false);
	await expect(latestModelRun(page).getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	await expect(latestModelRun(second).getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	// Both tabs heard "online"; the leader alone sent it, once, under its key.
	await expect.poll(() => totalDispatches(emulator)).toBe(1);
	const charges = Object.values((await counters(emulator)).charges).reduce((a, b) => a + b, 0);
	expect(charges).toBe(1);
});
