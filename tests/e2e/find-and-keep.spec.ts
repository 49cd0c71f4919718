import { E2E_TIMINGS, test, expect, openExample, workflowControl } from './fixtures';
import type { Page } from '@playwright/test';

/** Runs the text-to-image example `times` times with `prompt`, and opens Runs once they are all done. */
async function runTextToImage(page: Page, prompt: string, times = 1): Promise<void> {
	await openExample(page, 'Text to image');
	const positive = page.getByRole('region', { name: 'Node CLIP Text Encode (Positive)' });
	await positive.getByRole('textbox', { name: 'text' }).fill(prompt);
	if (times > 1) {
		await page.getByLabel('Run times').fill(String(times));
		await page.getByRole('button', { name: `Run ${times} times` }).click();
	} else await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	await expect(page.getByRole('list', { name: 'Runs' }).getByRole('link', { name: /, succeeded:/ })).toHaveCount(times, {
		timeout: 20_000
	});
}

test('search finds a run by a word of its prompt and by its seed, with the words marked @phone', async ({ page, openApp, emulator }) => {
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/');
	await runTextToImage(page, 'a zeppelin over a harbour at dawn');
	const runs = page.getByRole('list', { name: 'Runs' });
	const search = page.getByRole('form', { name: 'Filter runs' }).getByLabel('Search');
	const found = page.getByRole('status').filter({ hasText: /found|Searching/ });

	await search.fill('HARBOUR');
	await expect(found).toHaveText(/^1 run found/);
	await expect(runs.getByRole('link')).toHaveCount(1);
	await expect(runs.locator('mark')).toHaveText(['harbour']);

	const seed = (await runs.getByText(/^seed \d+$/).textContent())!.replace('seed ', '');
	await search.fill(`seed:${seed}`);
	await expect(found).toHaveText(/^1 run found/);
	await expect(runs.locator('mark')).toHaveText([seed]);

	// What the row does not show is said with the match: the negative prompt.
	await search.fill('negative:watermark');
	await expect(runs.getByText('negative: text, watermark')).toBeVisible();
	await search.fill('lighthouse');
	await expect(found).toHaveText(/^0 runs found/);
	await expect(page.getByText('No run matches these filters.')).toBeVisible();
});

test('a starred run is kept: starred only, kept after a reload, and its output stays when space is freed @phone', async ({
	page,
	openApp,
	emulator
}) => {
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/');
	await runTextToImage(page, 'a kite over the sea', 2);
	const runs = page.getByRole('list', { name: 'Runs' });
	const stars = runs.getByRole('button', { name: 'Star Text to image' });
	await stars.first().click();
	await expect(stars.first()).toHaveAttribute('aria-pressed', 'true');

	const filters = page.getByRole('form', { name: 'Filter runs' });
	await filters.getByLabel('Starred only').check();
	await expect(runs.getByRole('link')).toHaveCount(1);
	await page.reload();
	await expect(runs.getByRole('link')).toHaveCount(2, { timeout: 20_000 });
	await expect(runs.getByRole('button', { name: 'Star Text to image', pressed: true })).toHaveCount(1);
	await filters.getByLabel('Starred only').check();
	await expect(runs.getByRole('link')).toHaveCount(1);

	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
	const storage = page.getByRole('region', { name: 'Storage' });
	await expect(storage).toContainText(/Starred outputs: 1 \(/);
	await expect(storage).toContainText(/Cached outputs: 2 \(/);
	await storage.getByRole('button', { name: /Free space/ }).click();
	await expect(storage.getByRole('status')).toContainText('Removed 1 cached output');
	await expect(storage).toContainText(/Cached outputs: 1 \(/);
	await expect(storage).toContainText(/Starred outputs: 1 \(/);
});

test('many runs are picked with Shift, deleted at once, and come back with undo @phone', async ({ page, openApp, emulator }) => {
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await page.clock.install();
	await openApp('/');
	await runTextToImage(page, 'a lantern in the rain', 3);
	const runs = page.getByRole('list', { name: 'Runs' });
	const boxes = runs.getByRole('checkbox');
	await boxes.first().click();
	await boxes.nth(2).click({ modifiers: ['Shift'] });
	await expect(boxes.nth(1)).toBeChecked();

	// The undo window held open, however slow the machine.
	await page.clock.pauseAt(await page.evaluate(() => Date.now() + 500));
	await page.getByRole('button', { name: 'Delete 3 from history' }).click();
	await page.getByRole('button', { name: 'Yes, delete 3' }).click();
	await expect(runs.getByRole('link')).toHaveCount(0);
	await page.getByRole('button', { name: 'Undo delete of 3 runs' }).click();
	await expect(runs.getByRole('link')).toHaveCount(3);
	await page.clock.resume();

	// Picked by a search, then deleted for good once the window ends.
	await page.getByRole('form', { name: 'Filter runs' }).getByLabel('Search').fill('lantern');
	await page.getByRole('checkbox', { name: 'Select all 3 found' }).check();
	await page.getByRole('button', { name: 'Delete 3 from history' }).click();
	await page.getByRole('button', { name: 'Yes, delete 3' }).click();
	await page.clock.runFor(E2E_TIMINGS.undoMs + 100);
	await expect(page.getByRole('heading', { name: 'No runs yet' })).toBeVisible({ timeout: 15_000 });
	await page.reload();
	await expect(page.getByRole('heading', { name: 'No runs yet' })).toBeVisible({ timeout: 15_000 });
});
