import { test, expect, hasHorizontalScroll } from './fixtures';
import { catalogIds, counters, sharedFaults } from './models-helpers';

test('walks a catalog with empty and short pages in the middle and shows every model', async ({ page, openApp, emulator }) => {
	const ids = await catalogIds(emulator);
	const before = (await counters(emulator)).requests['GET /v2/models'] ?? 0;
	await openApp('/models');
	const status = page.getByRole('status', { name: 'Catalog status' });
	await expect(status).toContainText('Up to date', { timeout: 20_000 });
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
	// The page opens on the schema's title, with the id beneath it, and the form.
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
	await expect(page.getByRole('main').getByText('kestrel/kestrel-v2-image-to-video', { exact: true }).first()).toBeVisible();
	await expect(page.getByRole('form', { name: 'Input of kestrel/kestrel-v2-image-to-video' })).toBeVisible({ timeout: 15_000 });
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
	// The badge names each service: the workflow socket is live, the router is not.
	const badge = page.getByRole('link', { name: /^Connection: / });
	await expect(badge).toHaveAccessibleName(/Workflows live · \d+ queued · Models unavailable/);
	await expect(badge).not.toHaveAccessibleName(/, Live/);
	await sharedFaults(emulator, { catalogUnavailable: false });
	await expect(status).toContainText('Up to date', { timeout: 30_000 });
	await expect(badge).toHaveAccessibleName(/, Live · \d+ queued\. Open settings$/);
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
	await expect(page.getByRole('status', { name: 'Catalog status' })).toContainText('Up to date', { timeout: 20_000 });
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
	await expect(stopped).toContainText('refused the link to the next page of the catalog');
	await expect(stopped).not.toContainText('inputs marked below');
	// What was seen stays on screen; there is no restart by itself (a restart would go back to the first page).
	const shown = await page.locator('main section[aria-label^="Provider"] a').count();
	expect(shown).toBeGreaterThan(0);
	expect(shown).toBeLessThan((await catalogIds(emulator)).length);
	await sharedFaults(emulator, { slowMs: 0 });
	await expect(status).not.toContainText('so far');
	await page.getByRole('button', { name: 'Refresh catalog' }).click();
	await expect(status).toContainText('Up to date', { timeout: 20_000 });
});

test('tiles fill in with kind, title and first sentence from the schemas; search finds a word only the description has, and kind chips filter', async ({
	page,
	openApp
}) => {
	// Every schema of the catalog is fetched in the background, two at a time: slow on a loaded machine.
	test.setTimeout(180_000);
	await openApp('/models');
	const status = page.getByRole('status', { name: 'Catalog status' });
	await expect(status).toContainText('Up to date', { timeout: 20_000 });
	// The catalog is usable at once: the ids are there before any schema.
	const voice = page.getByRole('link', { name: /voice-hd/ }).first();
	await expect(voice).toBeVisible();
	// Then the background prefetch brings each schema's words.
	await expect(voice).toContainText('Reads your text aloud as natural speech.', { timeout: 60_000 });
	await expect(voice).toContainText('Audio · needs text');
	await expect(page.getByText(/reading model details/)).toHaveCount(0, { timeout: 90_000 });

	// "speech" is in no id of the sonora voice-hd models, only in their descriptions.
	await page.getByLabel('Search models').fill('speech');
	await expect(page.getByRole('link', { name: /voice-hd/ }).first()).toBeVisible();
	await expect(page.getByRole('region', { name: 'Provider lumen' })).toHaveCount(0);
	await page.getByLabel('Search models').fill('');

	const kinds = page.getByRole('group', { name: 'Kinds' });
	await kinds.getByRole('button', { name: 'Text' }).click();
	await expect(page.getByRole('region', { name: 'Provider quill' })).toBeVisible();
	await expect(page.getByRole('region', { name: 'Provider lumen' })).toHaveCount(0);
	await expect(page.getByRole('region', { name: 'Provider sonora' })).toHaveCount(0);
	await kinds.getByRole('button', { name: 'Audio' }).click();
	await expect(page.getByRole('region', { name: 'Provider sonora' })).toBeVisible();
	await kinds.getByRole('button', { name: 'Text' }).click();
	await expect(page.getByRole('region', { name: 'Provider quill' })).toHaveCount(0);
	await page.getByRole('group', { name: 'Providers' }).getByRole('button', { name: 'openforge' }).click();
	// Audio and openforge: the community audio model, known as audio only by its title's words.
	await expect(page.locator('main section[aria-label^="Provider"] a')).toHaveCount(3);
	await expect(page.getByRole('link', { name: /community-audio/ }).first()).toBeVisible();

	// Pinned first, and still after a reload (the summaries come from the saved copy at once).
	await page.getByRole('button', { name: 'Pin openforge/community-audio-v2' }).click();
	await page.reload();
	const top = page.getByRole('region', { name: 'Pinned and recent' });
	await expect(top.getByRole('link', { name: /community-audio-v2/ })).toContainText('Audio');
});

test('a profile without a model router says so on Models and how to add one, never a red error', async ({ page, openApp, emulator }) => {
	await openApp('/settings');
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: /Cloud/ }).check();
	await form.getByLabel('Name').fill('Workflows only');
	await form.getByLabel('Workflow service URL').fill(emulator.urls.workflow);
	await form.getByLabel('Model router URL').fill('');
	await form.getByLabel('API key', { exact: true }).fill(emulator.apiKey);
	await form.getByRole('button', { name: 'Save profile' }).click();
	await page.getByRole('button', { name: 'Use Workflows only' }).click();
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Models' }).click();
	await expect(page.getByRole('heading', { name: 'This profile has no model service' })).toBeVisible();
	await expect(page.getByText('add the model router address')).toBeVisible();
	await expect(
		page.getByRole('region', { name: 'This profile has no model service' }).getByRole('link', { name: 'Open Settings' })
	).toBeVisible();
	await expect(page.getByRole('alert')).toHaveCount(0);
	await expect(page.getByText('cannot be shown')).toHaveCount(0);
});
