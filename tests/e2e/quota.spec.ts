import type { Browser, Page } from '@playwright/test';
import { test, expect, openExample, workflowControl } from './fixtures';
import { holdNode, release, untilHeld } from './holds';
import { counters, latestModelRun } from './models-helpers';

// The service worker's precache would take its share of the quota at a moment of its own choosing.
test.use({ serviceWorkers: 'block' });

/** What the app stores once an example is open, measured in a context of its own. */
async function baselineUsage(browser: Browser, appUrl: string): Promise<number> {
	const context = await browser.newContext({ serviceWorkers: 'block' });
	const page = await context.newPage();
	await page.goto(`${appUrl}/`);
	await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
	await openExample(page, 'Text to image');
	const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
	await context.close();
	return usage;
}

/**
 * Chromium's IndexedDB takes an origin's quota when it first opens its storage there, so the
 * override is set on a blank page of the app's origin before the app ever runs in this context.
 */
async function limitQuota(page: Page, appUrl: string, quotaSize: number): Promise<void> {
	const blank = `${appUrl}/__quota-blank`;
	await page.route(blank, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' }));
	await page.goto(blank);
	const client = await page.context().newCDPSession(page);
	await client.send('Storage.overrideQuotaForOrigin', { origin: new URL(appUrl).origin, quotaSize });
}

/** Leaves the app `headroom` bytes of quota above what it stores once an example is open. */
async function leaveHeadroom(page: Page, browser: Browser, appUrl: string, headroom: number): Promise<void> {
	const usage = await baselineUsage(browser, appUrl);
	await page.bringToFront(); // the measuring context's page took the focus, and with it the frames
	await limitQuota(page, appUrl, usage + headroom);
}

test('with the device nearly full, a run is followed to its end, its record and output links are shown, and Free space is offered', async ({
	page,
	browser,
	openApp,
	app,
	emulator
}) => {
	test.setTimeout(90_000);
	// Held after the sampler's second step: the run is seen going before its bytes meet the full device.
	await holdNode(emulator, { classType: 'KSampler', step: 2 });
	await leaveHeadroom(page, browser, app.url, 16 * 1024);

	await openApp('/');
	await openExample(page, 'Text to image');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await untilHeld(emulator);
	await expect(page.getByText('step 2 of 20').first()).toBeVisible();
	await release(emulator);
	// Shown from the service: the bytes could not be kept, the link to them is.
	const output = page.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ }).first();
	await expect(output).toBeVisible({ timeout: 30_000 });
	await expect.poll(() => output.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

	const banner = page.getByRole('alert').filter({ hasText: 'Storage on this device is full' });
	await expect(banner).toBeVisible({ timeout: 20_000 });
	await expect(banner.getByRole('button', { name: 'Free space' })).toBeVisible();

	// The record is in the Runs list and opens, with its output, while this session lasts.
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	await page.getByRole('link', { name: 'Run Text to image, succeeded' }).click();
	await expect(page).toHaveURL(/\/runs\/[^/]+$/, { timeout: 15_000 });
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	await expect(page.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ }).first()).toBeVisible();

	// Nothing else is lost: the workflow is still in the library, and the profile still connects.
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	await expect(page.getByRole('button', { name: 'Open example Text to image' })).toBeVisible();
	await expect(page.getByRole('link', { name: /Connection: Demo/ })).toBeVisible();
});

/** The runs the workflow service accepted, by its own history. */
async function runsSent(workflowUrl: string, apiKey: string): Promise<number> {
	const res = await fetch(`${workflowUrl}/api/history`, { headers: { 'X-API-Key': apiKey } });
	return Object.keys((await res.json()) as object).length;
}

test('with 16 KiB of headroom, every run sent keeps its record and key (or is not sent, saying why), and the records outlive the tab', async ({
	page,
	browser,
	openApp,
	app,
	emulator
}) => {
	test.setTimeout(120_000);
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await leaveHeadroom(page, browser, app.url, 16 * 1024);

	await openApp('/');
	await openExample(page, 'Text to image');
	const run = page.getByRole('button', { name: 'Run', exact: true });
	const refused = page.getByText(/was not sent/);
	let notSent = 0;
	let sent = 0;
	for (let i = 0; i < 4; i++) {
		const before = await runsSent(emulator.urls.workflow, emulator.apiKey);
		await run.click();
		// Each Run ends one of two ways: the service has it, or the page says it was not sent and why
		// (a Run clears the last run's message first).
		const outcome = async () =>
			(await runsSent(emulator.urls.workflow, emulator.apiKey)) > before ? 'sent' : (await refused.isVisible()) ? 'refused' : '';
		await expect.poll(outcome, { timeout: 20_000 }).not.toBe('');
		if ((await outcome()) === 'sent') sent++;
		else notSent++;
		await expect(run).toBeEnabled({ timeout: 20_000 });
	}
	expect(sent + notSent).toBe(4);
	console.log(`quota e2e: ${sent} runs sent, ${notSent} not sent (the page said why)`);

	// Closed and opened again: every run the service has is in the Runs list, read from the device.
	const context = page.context();
	await page.close();
	const again = await context.newPage();
	await again.goto(`${app.url}/`);
	await again.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	await expect(again.getByRole('link', { name: /^Run Text to image, / })).toHaveCount(sent, { timeout: 20_000 });
});

test('with 16 KiB of headroom, a model request put in the outbox offline outlives the tab and is sent once when back online', async ({
	page,
	browser,
	openApp,
	app,
	emulator
}) => {
	test.setTimeout(120_000);
	await leaveHeadroom(page, browser, app.url, 16 * 1024);

	await openApp('/models/lumen/flux-1');
	const form = page.getByRole('form', { name: 'Input of lumen/flux-1' });
	await expect(form).toBeVisible({ timeout: 15_000 });
	const context = page.context();
	await context.setOffline(true);
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('A paper boat, on a full device');
	await form.getByRole('button', { name: 'Run when back online' }).click();
	// Kept on the device, or refused with the reason: never promised and then lost.
	const kept = latestModelRun(page).getByRole('status').filter({ hasText: 'In the outbox' });
	const refused = page.getByText(/was not sent/);
	await expect(kept.or(refused).first()).toBeVisible({ timeout: 15_000 });
	const inOutbox = await kept.isVisible();
	console.log(`quota e2e: the outbox entry was ${inOutbox ? 'kept' : 'refused with the reason shown'}`);

	// Closed offline, opened again online: the entry is still there and goes out once, under its key.
	await page.close();
	await context.setOffline(false);
	const again = await context.newPage();
	await again.goto(`${app.url}/models/lumen/flux-1`);
	if (inOutbox) {
		await expect(latestModelRun(again).getByRole('status')).toHaveText('Succeeded', { timeout: 30_000 });
		await expect.poll(async () => Object.values((await counters(emulator)).dispatches).reduce((a, b) => a + b, 0)).toBe(1);
	} else {
		expect(Object.values((await counters(emulator)).dispatches).reduce((a, b) => a + b, 0)).toBe(0);
	}
});
