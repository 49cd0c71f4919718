/**
 * The model page's run cards are the Runs timeline's runs of that model, in the timeline's state: runs
 * started before this visit, finished or still queued, each have their card (it once showed only the newest).
 */
import { test, expect } from './fixtures';
import { routerControl } from './models-helpers';

test('after a reload the model page shows a card for every run of the model the Runs list has, in the same state', async ({
	page,
	openApp,
	emulator
}) => {
	await openApp('/models/quill/quill-mini');
	const form = page.getByRole('form', { name: 'Input of quill/quill-mini' });
	await expect(form).toBeVisible({ timeout: 15_000 });
	const cards = page.getByRole('region', { name: 'Runs of this model' }).getByRole('article');
	for (const prompt of ['first answer', 'second answer']) {
		await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill(prompt);
		await form.getByRole('button', { name: 'Run now' }).click();
		await expect(cards.filter({ hasText: prompt }).getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	}
	await routerControl(emulator, 'settings', { queuePaused: true });
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('queued answer');
	await form.getByRole('button', { name: 'Add to queue' }).click();
	await expect(cards.filter({ hasText: 'queued answer' })).toContainText('Queue position 0', { timeout: 15_000 });

	await page.reload();
	await expect(cards).toHaveCount(3, { timeout: 15_000 });
	await expect(cards.filter({ hasText: 'first answer' }).getByRole('status')).toHaveText('Succeeded');
	await expect(cards.filter({ hasText: 'second answer' }).getByRole('status')).toHaveText('Succeeded');
	await expect(cards.first()).toContainText('queued answer');

	// Finished while no page of it is open: the model page shows it as the Runs list does.
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	await routerControl(emulator, 'settings', { queuePaused: false });
	await expect(page.getByRole('link', { name: /^Run quill\/quill-mini: queued answer.*, succeeded/ })).toBeVisible({ timeout: 30_000 });
	await page.goBack();
	await expect(cards).toHaveCount(3, { timeout: 15_000 });
	await expect(cards.filter({ hasText: 'queued answer' }).getByRole('status')).toHaveText('Succeeded');
});
