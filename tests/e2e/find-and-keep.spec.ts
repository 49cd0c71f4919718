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
	await expect(page.getByRole('list', { name: 'Runs' }).getByRole('link', { name: /, succeeded:/ })).toHaveCount(times, { timeout: 20_000 });
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
