import { test, expect, hasHorizontalScroll } from './fixtures';
import { catalogIds, counters, sharedFaults } from './models-helpers';

test('walks a catalog with empty and short pages in the middle and shows every model', async ({ page, openApp, emulator }) => {
	const ids = await catalogIds(emulator);
	const before = (await counters(emulator)).requests['GET /v2/models'] ?? 0;
	await openApp('/models');
	const status = page.getByRole('status', { name: 'Catalog status' });
	await expect(status).toContainText('Complete', { timeout: 20_000 });
	await expect(status).toContainText(`${ids.length} models`);
	await expect(page.locator('main section[aria-label^="Provider"] a')).toHaveCount(ids.length);
	// The walk used the default page size, so it crossed the emulator's empty and half pages.
	const walked = ((await counters(emulator)).requests['GET /v2/models'] ?? 0) - before;
	expect(walked).toBeGreaterThan(Math.ceil(ids.length / 20));
	// Grouped by provider, with search.
	await expect(page.getByRole('region', { name: 'Provider lumen' })).toBeVisible();
	await page.getByLabel('Search models').fill('kestrel-v2 image');
	await expect(page.getByText('Showing 2 of')).toBeVisible();
	await page.getByRole('link', { name: /kestrel-v2-image-to-video/ }).click();
	await expect(page.getByRole('heading', { name: 'kestrel/kestrel-v2-image-to-video' })).toBeVisible();
	await expect(page.getByLabel('Model facts')).toContainText('May be charged');
	await expect(page.getByLabel('Model facts')).toContainText('raw value: yes');
});

test('a 503 catalog is "unavailable, retrying", never empty, then completes; the saved list shows with its age', async ({
	page,
	openApp,
	emulator
}) => {
	await sharedFaults(emulator, { catalogUnavailable: true });
	await openApp('/models');
	const status = page.getByRole('status', { name: 'Catalog status' });
	await expect(status).toContainText('Catalog unavailable, retrying');
	await expect(page.getByText('No models')).toHaveCount(0);
	await expect(status).toContainText('Service unavailable');
	await expect(status).not.toContainText('0 models');
	await expect(page.getByRole('heading', { level: 1 })).toContainText('service unavailable');
	await sharedFaults(emulator, { catalogUnavailable: false });
	await expect(status).toContainText('Complete', { timeout: 30_000 });
	const total = (await catalogIds(emulator)).length;
	await expect(status).toContainText(`${total} models`);

	// A later visit while the catalog is down shows the saved list, marked with its age.
	await sharedFaults(emulator, { catalogUnavailable: true });
	await page.reload();
	await expect(status).toContainText(`${total} models · saved just now`);
	await expect(status).toContainText('showing the saved list');
	await expect(page.getByRole('region', { name: 'Provider quill' })).toBeVisible();
});

test('the catalog fits a 390 px phone screen and a policy-charge filter narrows it', async ({ page, openApp }) => {
	await page.setViewportSize({ width: 390, height: 844 });
	await openApp('/models');
	await expect(page.getByRole('status', { name: 'Catalog status' })).toContainText('Complete', { timeout: 20_000 });
	expect(await hasHorizontalScroll(page)).toBe(false);
	await page.getByLabel('Only models whose refusals are not charged').check();
	await expect(page.getByRole('region', { name: 'Provider kestrel' })).toHaveCount(0);
	await expect(page.getByRole('region', { name: 'Provider lumen' })).toBeVisible();
});

test('a cursor made invalid mid-walk (catalog rebuilt) stops the walk with the error; it never restarts from the top', async ({
	page,
	openApp,
	emulator
}) => {
	await sharedFaults(emulator, { slowMs: 400 });
	await openApp('/models');
	const status = page.getByRole('status', { name: 'Catalog status' });
	await expect(status).toContainText(/[1-9] pages? so far/, { timeout: 20_000 });
	const rebuilt = await fetch(`${emulator.urls.router}/__emulator/router/catalog/rebuild`, { method: 'POST' });
	expect(rebuilt.ok).toBe(true);
	const stopped = page.getByRole('alert').filter({ hasText: 'The catalog walk stopped' });
	await expect(stopped).toBeVisible({ timeout: 20_000 });
	await expect(stopped).toContainText(/HTTP 400 · type invalid_input · request id [0-9a-f-]{36}/);
	// What was seen stays on screen; there is no restart by itself (a restart would go back to the first page).
	const shown = await page.locator('main section[aria-label^="Provider"] a').count();
	expect(shown).toBeGreaterThan(0);
	expect(shown).toBeLessThan((await catalogIds(emulator)).length);
	await sharedFaults(emulator, { slowMs: 0 });
	await expect(status).not.toContainText('so far');
	await page.getByRole('button', { name: 'Refresh catalog' }).click();
	await expect(status).toContainText('Complete', { timeout: 20_000 });
});
