import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { counters, holdProvider, latestModelRun, releaseProvider, routerControl, untilHeld } from './models-helpers';

async function openModel(page: Page, openApp: (path?: string) => Promise<void>, id: string) {
	await openApp(`/models/${id}`);
	const form = page.getByRole('form', { name: `Input of ${id}` });
	await expect(form).toBeVisible({ timeout: 15_000 });
	return form;
}

const totalDispatches = async (emulator: Parameters<typeof counters>[0]) =>
	Object.values((await counters(emulator)).dispatches).reduce((a, b) => a + b, 0);

test('a queued request survives a reload: re-attached by id, collected once, listed with the model runs @phone', async ({
	page,
	openApp,
	emulator
}) => {
	await routerControl(emulator, 'settings', { providerMs: 300, queuePaused: true });
	const form = await openModel(page, openApp, 'sonora/speech-1');
	await form.getByRole('textbox', { name: 'Text', exact: true }).fill('Your run has finished.');
	await form.getByRole('button', { name: 'Add to queue' }).click();
	const runs = page.getByRole('region', { name: 'Runs of this model' });
	await expect(runs.getByRole('article').first()).toContainText('Queue position 0');
	await page.reload();
	await expect(runs.getByRole('article').first()).toContainText('Queue position 0', { timeout: 15_000 });
	await routerControl(emulator, 'settings', { queuePaused: false });
	await expect(runs.getByRole('article').first().getByRole('status')).toHaveText('Succeeded', { timeout: 30_000 });
	await expect(
		runs
			.getByRole('article')
			.first()
			.getByLabel(/audio 1 of Queued run/)
	).toBeVisible();
	expect(await totalDispatches(emulator)).toBe(1);
	// The old Model runs address leads to the one history, filtered to model runs, and the run opens on the one run page.
	await page.goto(page.url().replace(/\/models.*$/, '/models/runs'));
	await expect(page).toHaveURL(/\/\?kind=model$/, { timeout: 15_000 });
	const row = page.getByRole('link', { name: /^Run sonora\/speech-1.*, succeeded/ });
	await expect(row).toBeVisible({ timeout: 15_000 });
	await row.click();
	await expect(page).toHaveURL(/\/runs\/[^/]+$/);
	await expect(page.getByRole('region', { name: 'Inputs used' })).toBeVisible({ timeout: 15_000 });
	await page.goto(page.url().replace('/runs/', '/models/runs/'));
	await expect(page).toHaveURL(/\/runs\/[^/]+$/, { timeout: 15_000 });
	await expect(page).not.toHaveURL(/\/models\//);
	await expect(page.getByRole('button', { name: 'Run again with these inputs' })).toBeVisible({ timeout: 15_000 });
});

test('a synchronous call in flight during a reload is sent again under its key and never run twice', async ({
	page,
	openApp,
	emulator
}) => {
	await routerControl(emulator, 'settings', { providerMs: 50 });
	await holdProvider(emulator, {});
	const form = await openModel(page, openApp, 'quill/quill-mini');
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('survive a reload');
	await form.getByRole('button', { name: 'Run now' }).click();
	const runs = page.getByRole('region', { name: 'Runs of this model' });
	await expect(runs.getByRole('article').first().getByRole('status')).toHaveText('Running');
	await untilHeld(emulator);
	await page.reload();
	const run = runs.getByRole('article').first();
	// Sent again under its key while the first call is still held: the service says it still runs.
	await expect(run).toContainText('Retrying under the same key', { timeout: 15_000 });
	await releaseProvider(emulator);
	await expect(run.getByRole('status')).toHaveText('Succeeded', { timeout: 30_000 });
	await expect(run).toContainText('Idempotent-Replayed');
	expect(await totalDispatches(emulator)).toBe(1);
});

test('at most four synchronous calls are held open; the rest wait their turn and all finish', async ({ page, openApp, emulator }) => {
	// Every call is held at the provider until all six are sent and the last two wait, however long sending takes.
	await routerControl(emulator, 'settings', { providerMs: 50 });
	await holdProvider(emulator, {});
	const form = await openModel(page, openApp, 'quill/quill-3');
	const prompt = form.getByRole('textbox', { name: 'Prompt', exact: true });
	for (let i = 1; i <= 6; i++) {
		await prompt.fill(`call ${i}`);
		await form.getByRole('button', { name: 'Run now' }).click();
	}
	const runs = page.getByRole('region', { name: 'Runs of this model' }).getByRole('article');
	await expect(runs).toHaveCount(6);
	await expect(runs.filter({ hasText: 'Waiting for a free connection: 4 synchronous calls are already held open.' })).toHaveCount(2);
	await untilHeld(emulator, 4);
	await holdProvider(emulator, null);
	await expect(runs.getByRole('status').filter({ hasText: 'Succeeded' })).toHaveCount(6, { timeout: 30_000 });
	expect(await totalDispatches(emulator)).toBe(6);
});

test('a model run appears in the Runs timeline beside workflow jobs and opens its own page', async ({ page, openApp, emulator }) => {
	await routerControl(emulator, 'settings', { providerMs: 300 });
	const form = await openModel(page, openApp, 'quill/quill-mini');
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('list three colours');
	await form.getByRole('button', { name: 'Run now' }).click();
	await expect(latestModelRun(page).getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	const entry = page.getByRole('link', { name: /Run quill\/quill-mini: list three colours, succeeded/ });
	await expect(entry).toBeVisible({ timeout: 15_000 });
	await entry.click();
	// The one run page, as for workflow jobs: timestamps, inputs used, run again.
	await expect(page).toHaveURL(/\/runs\/[^/]+$/);
	await expect(page.getByRole('heading', { name: 'quill/quill-mini' })).toBeVisible({ timeout: 15_000 });
	await expect(page.getByRole('region', { name: 'Inputs used' })).toContainText('list three colours');
	await expect(page.getByRole('article').getByRole('status')).toHaveText('Succeeded');
	await expect(page.getByRole('region', { name: /Result of Direct run/ })).toContainText('output');
});
