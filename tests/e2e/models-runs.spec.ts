import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { counters, holdProvider, latestModelRun, routerControl } from './models-helpers';

async function openModel(page: Page, openApp: (path?: string) => Promise<void>, id: string) {
	await openApp(`/models/${id}`);
	await expect(page.getByRole('form', { name: `Input of ${id}` })).toBeVisible({ timeout: 15_000 });
	return page.getByRole('form', { name: `Input of ${id}` });
}

async function dispatchesOfRun(emulator: Parameters<typeof counters>[0], keyPrefix: string): Promise<number> {
	const c = await counters(emulator);
	return Object.entries(c.dispatches)
		.filter(([k]) => k.split('|')[1]?.startsWith(keyPrefix))
		.reduce((n, [, v]) => n + v, 0);
}

async function keyPrefixOf(page: Page): Promise<string> {
	const text =
		(await latestModelRun(page)
			.getByText(/key [0-9a-f]{8}…/)
			.textContent()) ?? '';
	return /key ([0-9a-f]{8})…/.exec(text)![1]!;
}

test.beforeEach(async ({ emulator }) => {
	await routerControl(emulator, 'settings', { providerMs: 300 });
});

test('runs a text-to-image model synchronously and shows the image, its expiry, cost and spend', async ({ page, openApp, emulator }) => {
	const form = await openModel(page, openApp, 'lumen/flux-1');
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('A lighthouse at dusk');
	await form.getByRole('button', { name: 'Run now' }).click();
	const run = latestModelRun(page);
	await expect(run.getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	const image = run.getByRole('img', { name: /image 1 of Direct run/ });
	await expect(image).toBeVisible();
	expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
	await expect(run).toContainText(/link expires in 2[34] h/);
	await expect(run).toContainText('bytes saved on this device');
	await expect(run).toContainText(/Cost of this run: \d+ credits/);
	await expect(page.getByRole('region', { name: 'Committed spend' })).toContainText(' headroom');
	expect(await dispatchesOfRun(emulator, await keyPrefixOf(page))).toBe(1);
});

test('an answer cut off mid-JSON is not a success: the card says it could not be read, and the same key gets it whole', async ({
	page,
	openApp,
	emulator
}) => {
	await routerControl(emulator, 'faults', { cutResultOnce: true });
	const form = await openModel(page, openApp, 'lumen/flux-1');
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('cut off on the way');
	await form.getByRole('button', { name: 'Run now' }).click();
	const run = latestModelRun(page);
	await expect(run.getByRole('status')).toHaveText('Failed', { timeout: 20_000 });
	await expect(run).toContainText('The model finished, but its answer could not be read');
	await expect(run).toContainText(/req(uest)? id/i);
	await run.getByRole('button', { name: 'Retry with the same key' }).click();
	await expect(run.getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	await expect(run.getByRole('img', { name: /image 1 of Direct run/ })).toBeVisible();
	await expect(run).toContainText("Replayed from the key's record (Idempotent-Replayed)");
	expect(await dispatchesOfRun(emulator, await keyPrefixOf(page))).toBe(1);
});

test('a connection dropped after dispatch is retried under the same key and replayed: one dispatch', async ({
	page,
	openApp,
	emulator
}) => {
	await routerControl(emulator, 'faults', { dropAfterDispatch: 'recoverable' });
	const form = await openModel(page, openApp, 'lumen/flux-1');
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('dropped after dispatch');
	await form.getByRole('button', { name: 'Run now' }).click();
	const run = latestModelRun(page);
	await expect(run.getByRole('status')).toHaveText('Succeeded', { timeout: 30_000 });
	await expect(run).toContainText("Replayed from the key's record (Idempotent-Replayed)");
	expect(await dispatchesOfRun(emulator, await keyPrefixOf(page))).toBe(1);
});

test('a dropped call whose key was consumed is "outcome unknown", never sent under a new key', async ({ page, openApp, emulator }) => {
	await routerControl(emulator, 'faults', { dropAfterDispatch: 'consumed' });
	const form = await openModel(page, openApp, 'lumen/flux-1');
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('consumed key');
	await form.getByRole('button', { name: 'Run now' }).click();
	const run = latestModelRun(page);
	await expect(run.getByRole('status')).toHaveText('Outcome unknown, may have been charged', { timeout: 30_000 });
	await expect(run).toContainText('HTTP 409');
	expect(await dispatchesOfRun(emulator, await keyPrefixOf(page))).toBe(1);
	expect(Object.values((await counters(emulator)).dispatches).reduce((a, b) => a + b, 0)).toBe(1);
	await expect(run.getByRole('button', { name: 'Retry with the same key' })).toHaveCount(0);

	// Only the person starts a new key, after a warning.
	await run.getByRole('button', { name: 'Run again…' }).click();
	await expect(run).toContainText('you may be charged twice');
	await run.getByRole('button', { name: 'Run again with a new key' }).click();
	const again = latestModelRun(page);
	await expect(again.getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	expect(Object.values((await counters(emulator)).dispatches).reduce((a, b) => a + b, 0)).toBe(2);
});

test('browser validation is worded, outlined, focused and summed up by Run; a service 422 puts its messages at the field', async ({
	page,
	openApp
}) => {
	const form = await openModel(page, openApp, 'lumen/flux-1');
	const prompt = form.getByRole('textbox', { name: 'Prompt', exact: true });
	await prompt.fill('');
	await form.getByText(/Advanced \(\d+ optional\)/).click();
	const steps = form.locator('[data-field="num_inference_steps"] input[type="number"]');
	await steps.fill('99');
	await form.getByRole('button', { name: 'Run now' }).click();
	// In the field's words, at the field, outlined.
	await expect(form.locator('[data-field="prompt"]').getByRole('alert')).toHaveText('Write a prompt.');
	await expect(form.locator('[data-field="num_inference_steps"]').getByRole('alert')).toHaveText('Use a whole number from 1 to 50.');
	await expect(form.locator('[data-field="prompt"]')).toHaveClass(/invalid/);
	expect(await prompt.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
	// The first error is focused (and so in view); the summary by Run names both, and takes you to each.
	await expect(prompt).toBeFocused();
	await expect(prompt).toBeInViewport();
	const summary = form.getByRole('alert', { name: 'Problems with the input' });
	await expect(summary).toContainText('2 fields need attention');
	await expect(summary).toContainText('Prompt: Write a prompt.');
	await summary.getByRole('button', { name: 'Steps' }).click();
	await expect(steps).toBeFocused();
	// Mended, the messages and the summary go.
	await prompt.fill('a red boat');
	await steps.fill('20');
	await expect(form.locator('[data-field="prompt"]').getByRole('alert')).toHaveCount(0);
	await expect(form.locator('[data-field="num_inference_steps"]').getByRole('alert')).toHaveCount(0);
	await expect(summary).toHaveCount(0);

	// An unauthored model: the browser cannot check it, the provider answers 422 with loc [body, prompt].
	const open = await openModel(page, openApp, 'openforge/community-sdxl');
	await open.getByRole('textbox', { name: 'Input (JSON)' }).fill('{"steps": 4}');
	await open.getByRole('button', { name: 'Run now' }).click();
	await expect(latestModelRun(page).getByRole('status')).toHaveText('Failed', { timeout: 20_000 });
	await expect(open.locator('[data-field="body"]').getByRole('alert')).toContainText('field required (at prompt)');
});

test('a queued video model shows its position; another is cancelled; the first is collected', async ({ page, openApp, emulator }) => {
	await routerControl(emulator, 'settings', { queuePaused: true });
	const form = await openModel(page, openApp, 'tidal/wave-1-t2v');
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('first in line');
	await form.getByRole('button', { name: 'Add to queue' }).click();
	await expect(latestModelRun(page)).toContainText('Queue position 0');
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('second in line');
	await form.getByRole('button', { name: 'Add to queue' }).click();
	const second = latestModelRun(page);
	await expect(second).toContainText('second in line');
	await expect(second).toContainText('Queue position 1');
	await second.getByRole('button', { name: 'Cancel request' }).click();
	await expect(second.getByRole('status')).toHaveText('Cancelled', { timeout: 20_000 });
	await routerControl(emulator, 'settings', { queuePaused: false });
	const first = page.getByRole('region', { name: 'Runs of this model' }).getByRole('article').filter({ hasText: 'first in line' });
	await expect(first.getByRole('status')).toHaveText('Succeeded', { timeout: 30_000 });
	// The emulator's video models return a real video (WebM) since the workbench issue: a player, not an image.
	await expect(first.locator('video[aria-label^="video 1 of Queued run"]')).toBeVisible();
	await expect(first).toContainText(/link expires in 1[12] h/);
});

test('a 503, an unknown error type and an HTML error page are each explained with status and request id', async ({
	page,
	openApp,
	emulator
}) => {
	const form = await openModel(page, openApp, 'quill/quill-3');
	const prompt = form.getByRole('textbox', { name: 'Prompt', exact: true });

	await routerControl(emulator, 'faults', { runsUnavailable: true });
	await prompt.fill('first');
	await form.getByRole('button', { name: 'Run now' }).click();
	let run = latestModelRun(page);
	await expect(run.getByRole('status')).toHaveText('Failed', { timeout: 20_000 });
	await expect(run.getByRole('alert')).toContainText('temporarily unavailable');
	await expect(run.getByRole('alert')).toContainText(/HTTP 503 · type service_unavailable · request id [0-9a-f-]{36}/);

	await routerControl(emulator, 'faults/clear', {});
	await routerControl(emulator, 'faults', { unknownErrorType: 'quantum_flux', unknownErrorStatus: 500 });
	await prompt.fill('second');
	await form.getByRole('button', { name: 'Run now' }).click();
	run = latestModelRun(page);
	await expect(run).toContainText('second');
	await expect(run.getByRole('status')).toHaveText('Failed', { timeout: 20_000 });
	await expect(run.getByRole('alert')).toContainText('"quantum_flux"');
	await expect(run.getByRole('alert')).toContainText(/HTTP 500 · type quantum_flux · request id [0-9a-f-]{36}/);

	await routerControl(emulator, 'faults', { unknownErrorType: null, runsUnavailable: true, errorBody: 'html' });
	await prompt.fill('third');
	await form.getByRole('button', { name: 'Run now' }).click();
	run = latestModelRun(page);
	await expect(run).toContainText('third');
	await expect(run.getByRole('status')).toHaveText('Failed', { timeout: 20_000 });
	await expect(run.getByRole('alert')).toContainText(/HTTP 503/);
	await expect(run.getByRole('alert')).toContainText(/request id [0-9a-f-]{36}/);
	await expect(run.getByRole('alert')).toContainText('HTML page');
});

test.describe('with the service worker', () => {
	// This journey needs the service worker, which the suite blocks by default (decision 0058).
	test.use({ serviceWorkers: 'allow' });

	test('a schema seen once opens offline, with its form', async ({ page, openApp, context }) => {
		await openModel(page, openApp, 'stratus/sd-3');
		await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);
		await context.setOffline(true);
		await page.reload();
		const form = page.getByRole('form', { name: 'Input of stratus/sd-3' });
		await expect(form).toBeVisible({ timeout: 15_000 });
		await expect(page.getByText(/Showing the schema saved/)).toBeVisible();
		await expect(form.getByRole('textbox', { name: 'Prompt', exact: true })).toBeVisible();
		await context.setOffline(false);
	});
});

test('each error type gets words a person can act on: credits, rate limit with the wait, forbidden, policy refusal with its charge rule', async ({
	page,
	openApp,
	emulator,
	control
}) => {
	const form = await openModel(page, openApp, 'prism/prism-image');
	const prompt = form.getByRole('textbox', { name: 'Prompt', exact: true });
	await prompt.fill('an nsfw request');
	await form.getByRole('button', { name: 'Run now' }).click();
	let run = latestModelRun(page);
	await expect(run.getByRole('status')).toHaveText('Failed', { timeout: 20_000 });
	await expect(run.getByRole('alert')).toContainText('refused this input on content-policy grounds');
	await expect(run.getByRole('alert')).toContainText('may be charged (the service says "per_attempt_review")');

	await routerControl(emulator, 'faults', { rateLimited: true });
	await prompt.fill('rate limited');
	await form.getByRole('button', { name: 'Run now' }).click();
	run = latestModelRun(page);
	await expect(run).toContainText('rate limited');
	await expect(run.getByRole('alert')).toContainText('wait 10 s');
	await routerControl(emulator, 'faults/clear', {});

	await control.scenario('no-credits');
	await prompt.fill('no credits');
	await form.getByRole('button', { name: 'Run now' }).click();
	run = latestModelRun(page);
	await expect(run).toContainText('no credits');
	await expect(run.getByRole('alert')).toContainText('no credits left. Add credits');

	await control.scenario('default');
	await openApp('/models/atelier-enterprise/studio-image');
	const refusal = page.getByRole('alert').filter({ hasText: "The model's schema cannot be read" });
	await expect(refusal).toContainText('not entitled to this model');
	await expect(refusal).toContainText(/HTTP 403 · type forbidden · request id [0-9a-f-]{36}/);
});

test('an image on a provider CDN without CORS headers is still shown, with its expiry, and no key reaches the CDN', async ({
	page,
	openApp
}) => {
	const form = await openModel(page, openApp, 'kestrel/kolor-image');
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('a kite over the dunes');
	await form.getByRole('button', { name: 'Run now' }).click();
	const run = latestModelRun(page);
	await expect(run.getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	const image = run.getByRole('img', { name: /image 1 of Direct run/ });
	await expect(image).toBeVisible();
	await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
	await expect(run).toContainText(/link expires in (59|60) min/);
	await expect(run).toContainText('no CORS headers');
	await expect(run).toContainText('an opaque copy is kept in the offline cache');
});

test('a 504 deadline with Retry-After is retried automatically under the same key and collects the one run', async ({
	page,
	openApp,
	emulator
}) => {
	// The run is held at the provider past the service's deadline, and let go once the 504 is being retried.
	await routerControl(emulator, 'settings', { syncHoldMs: 300 });
	await holdProvider(emulator, {});
	const form = await openModel(page, openApp, 'lumen/flux-1');
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('past the hold');
	await form.getByRole('button', { name: 'Run now' }).click();
	const run = latestModelRun(page);
	await expect(run).toContainText('Retrying under the same key', { timeout: 15_000 });
	await holdProvider(emulator, null);
	await expect(run.getByRole('status')).toHaveText('Succeeded', { timeout: 30_000 });
	await expect(run).toContainText('Idempotent-Replayed');
	expect(await dispatchesOfRun(emulator, await keyPrefixOf(page))).toBe(1);
});
