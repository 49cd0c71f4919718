import type { Page } from '@playwright/test';
import { E2E_TIMINGS, test, expect, openExample, runExample, workflowControl } from './fixtures';
import { holdNode } from './holds';
import { latestModelRun } from './models-helpers';

/**
 * The undo window and the other tabs' grace run on the page's timers, so each tab's Playwright clock
 * (installed before the app loads; time flows as usual) moves them: a window is ended by moving the
 * clock past it, never waited out, and held open by pausing it while a test clicks Undo.
 */
async function endUndoWindow(page: Page): Promise<void> {
	await page.clock.runFor(E2E_TIMINGS.undoMs + 100);
}

async function pauseClock(page: Page): Promise<void> {
	// A moment ahead of the page's clock, which moves on while this call travels.
	await page.clock.pauseAt(await page.evaluate(() => Date.now() + 500));
}

test('the timeline filters runs and acts on many at once: cancel, run again, delete', async ({ page, openApp, emulator }) => {
	// Six runs through many pages: longer than the default budget on a loaded machine.
	test.setTimeout(90_000);
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await page.clock.install();
	await openApp('/');
	await openExample(page, 'Text to image');
	await page.getByLabel('Run times').fill('2');
	await page.getByRole('button', { name: 'Run 2 times' }).click();
	await expect(page.getByRole('link', { name: 'Open run Text to image' })).toHaveCount(2);

	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	const runs = page.getByRole('list', { name: 'Runs' });
	await expect(runs.getByRole('link', { name: 'Run Text to image, succeeded' })).toHaveCount(2, { timeout: 20_000 });

	const filters = page.getByRole('form', { name: 'Filter runs' });
	await filters.getByLabel('Status').selectOption('Failed');
	await expect(page.getByText('No run matches these filters.')).toBeVisible();
	await filters.getByLabel('Status').selectOption('All');
	await filters.getByLabel('Search').fill('no such workflow');
	await expect(page.getByText('No run matches these filters.')).toBeVisible();
	await filters.getByLabel('Search').fill('text to');
	await expect(runs.getByRole('link')).toHaveCount(2);
	await filters.getByLabel('Kind').selectOption('Models');
	await expect(runs.getByRole('link')).toHaveCount(0);
	await filters.getByLabel('Kind').selectOption('Workflows');

	// Run both again with the same inputs (the service answers those from its cache at once).
	await page.getByRole('checkbox', { name: 'Select all 2' }).check();
	await page.getByRole('button', { name: 'Run 2 again' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Started 2 runs again.' })).toBeVisible();
	await expect(runs.getByRole('link')).toHaveCount(4);

	// Two new runs, the first held in its sampler and the second waiting behind it, however long
	// the list takes: cancel both from the list while one runs and one waits.
	await holdNode(emulator, { classType: 'KSampler' });
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	await page.getByRole('link', { name: 'Text to image' }).first().click();
	await page.getByLabel('Run times').fill('2');
	await page.getByRole('button', { name: 'Run 2 times' }).click();
	await expect(page.getByRole('link', { name: 'Open run Text to image' })).toHaveCount(2);
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	await filters.getByLabel('Status').selectOption('Queued or running');
	await expect(runs.getByRole('link')).toHaveCount(2);
	await page.getByRole('checkbox', { name: 'Select all 2' }).check();
	await page.getByRole('button', { name: 'Cancel 2' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Asked to cancel 2 runs.' })).toBeVisible();
	await filters.getByLabel('Status').selectOption('Cancelled');
	await expect(runs.getByRole('link')).toHaveCount(2, { timeout: 15_000 });

	await filters.getByLabel('Status').selectOption('All');
	await page.getByRole('checkbox', { name: 'Select all 6' }).check();
	await page.getByRole('button', { name: 'Delete 6 from history' }).click();
	// Several runs: asked once.
	await page.getByRole('button', { name: 'Yes, delete 6' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Deleted 6 runs from history.' })).toBeVisible();
	// Nothing is deleted until the undo window ends.
	await expect(page.getByRole('button', { name: /Undo delete/ })).toBeVisible();
	await endUndoWindow(page);
	await expect(page.getByRole('button', { name: /Undo delete/ })).toHaveCount(0);
	// The page sends the deletes when the window ends; once they are done the list is empty, and stays so.
	await expect(page.getByRole('heading', { name: 'No runs yet' })).toBeVisible({ timeout: 15_000 });
	await page.reload();
	await expect(page.getByRole('heading', { name: 'No runs yet' })).toBeVisible();
});

test('a model request shows in the timeline with its picture, and can be deleted from history', async ({ page, openApp, emulator }) => {
	await fetch(`${emulator.urls.router}/__emulator/router/settings`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ providerMs: 100 })
	});
	await page.clock.install();
	await openApp('/models/lumen/flux-1');
	const form = page.getByRole('form', { name: 'Input of lumen/flux-1' });
	await expect(form).toBeVisible({ timeout: 15_000 });
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('a kite over the sea');
	await form.getByRole('button', { name: 'Run now' }).click();
	await expect(latestModelRun(page).getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });

	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	const runs = page.getByRole('list', { name: 'Runs' });
	const row = runs.getByRole('listitem').filter({ hasText: 'lumen/flux-1' });
	await expect(row).toHaveCount(1);
	await expect(row.locator('img')).toHaveJSProperty('complete', true);
	expect(await row.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

	await row.getByRole('checkbox').check();
	await page.getByRole('button', { name: 'Delete 1 from history' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Deleted 1 run from history.' })).toBeVisible();
	await endUndoWindow(page);
	await expect(page.getByRole('button', { name: /Undo delete/ })).toHaveCount(0);
	// The page sends the deletes when the window ends; once they are done the list is empty, and stays so.
	await expect(page.getByRole('heading', { name: 'No runs yet' })).toBeVisible({ timeout: 15_000 });
	await page.reload();
	await expect(page.getByRole('heading', { name: 'No runs yet' })).toBeVisible();
});

test('a run is titled by its prompt and found by a word of it', async ({ page, openApp, emulator }) => {
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/');
	await openExample(page, 'Text to image');
	const positive = page.getByRole('region', { name: 'Node CLIP Text Encode (Positive)' });
	await positive.getByRole('textbox', { name: 'text' }).fill('a zeppelin over a harbour at dawn');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	const runs = page.getByRole('list', { name: 'Runs' });
	const row = runs.getByRole('link', { name: /a zeppelin over a harbour at dawn/ });
	await expect(row).toBeVisible({ timeout: 20_000 });
	await expect(row.locator('.title')).toHaveText('a zeppelin over a harbour at dawn');

	const filters = page.getByRole('form', { name: 'Filter runs' });
	await filters.getByLabel('Search').fill('harbour');
	await expect(runs.getByRole('link')).toHaveCount(1);
	await filters.getByLabel('Search').fill('lighthouse');
	await expect(page.getByText('No run matches these filters.')).toBeVisible();
});

test('a deleted run is hidden at once and comes back with undo; deleted without undo it is gone in every tab', async ({
	page,
	context,
	openApp,
	emulator
}) => {
	// Two tabs and two reloads: more than the default budget on a loaded machine.
	test.setTimeout(90_000);
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await page.clock.install();
	await openApp('/');
	await openExample(page, 'Text to image');
	await page.getByLabel('Run times').fill('2');
	await page.getByRole('button', { name: 'Run 2 times' }).click();
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	const runs = page.getByRole('list', { name: 'Runs' });
	const done = runs.getByRole('link', { name: /Run Text to image, succeeded/ });
	await expect(done).toHaveCount(2, { timeout: 20_000 });

	const other = await context.newPage();
	await other.clock.install();
	await other.goto(page.url());
	const otherRuns = other.getByRole('list', { name: 'Runs' });
	await expect(otherRuns.getByRole('link', { name: /Run Text to image, succeeded/ })).toHaveCount(2, { timeout: 20_000 });

	// Delete one, then undo (the window held open, however slow the machine): hidden here and in the other tab, then back in both.
	await runs.getByRole('listitem').first().getByRole('checkbox').check();
	await pauseClock(page);
	await page.getByRole('button', { name: 'Delete 1 from history' }).click();
	await expect(done).toHaveCount(1);
	await expect(otherRuns.getByRole('link')).toHaveCount(1);
	await page.getByRole('button', { name: 'Undo delete of 1 run' }).click();
	await expect(done).toHaveCount(2);
	await expect(otherRuns.getByRole('link')).toHaveCount(2);
	await page.clock.resume();

	// Delete one and let the window end: gone here, in the other tab, and after a reload of either.
	await runs.getByRole('listitem').first().getByRole('checkbox').check();
	await page.getByRole('button', { name: 'Delete 1 from history' }).click();
	await expect(otherRuns.getByRole('link')).toHaveCount(1);
	await endUndoWindow(page);
	await expect(page.getByRole('button', { name: /Undo delete/ })).toHaveCount(0);
	await expect(otherRuns.getByRole('link')).toHaveCount(1);
	// Past the other tab's grace (its clock moved past it): still gone (deleted, not merely hidden).
	await other.clock.runFor(E2E_TIMINGS.undoMs + E2E_TIMINGS.undoGraceMs + 100);
	await expect(otherRuns.getByRole('link')).toHaveCount(1);
	await other.reload();
	await expect(otherRuns.getByRole('link')).toHaveCount(1, { timeout: 20_000 });
	await page.reload();
	await expect(runs.getByRole('link')).toHaveCount(1, { timeout: 20_000 });
	await other.close();
});

test('a run deleted from its own page goes to Runs with undo, and comes back when undone', async ({ page, openApp, emulator }) => {
	test.setTimeout(60_000);
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await page.clock.install();
	await openApp('/');
	await runExample(page, 'Text to image');
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	const runPage = page.url();

	// The window held open while the Runs page loads, however slow the machine.
	await pauseClock(page);
	await page.getByRole('button', { name: 'Delete from history' }).click();
	await expect(page.getByRole('heading', { name: 'Runs' })).toBeVisible();
	await expect(page.getByRole('status').filter({ hasText: 'Deleted “Text to image” from history.' })).toBeVisible();
	const row = page.getByRole('link', { name: /Run Text to image, succeeded/ });
	await expect(row).toHaveCount(0);
	await page.getByRole('button', { name: 'Undo delete of 1 run' }).click();
	await expect(row).toHaveCount(1);
	await page.clock.resume();

	// Deleted again and left alone: gone once the window ends, and after a reload.
	await page.goto(runPage);
	await page.getByRole('button', { name: 'Delete from history' }).click();
	// On the Runs page first (after a full load its code may take a moment): only there is Undo offered.
	await expect(page.getByRole('heading', { name: 'Runs', level: 1 })).toBeVisible({ timeout: 15_000 });
	await endUndoWindow(page);
	await expect(page.getByRole('button', { name: /Undo delete/ })).toHaveCount(0);
	// The delete is sent when the window ends; the list is empty once it is done, and a reload only then.
	await expect(page.getByRole('heading', { name: 'No runs yet' })).toBeVisible({ timeout: 15_000 });
	await page.reload();
	await expect(page.getByRole('heading', { name: 'No runs yet' })).toBeVisible({ timeout: 15_000 });
});
