/**
 * The keyboard alone: Ctrl+Enter (Cmd+Enter on a Mac) runs a form from any field, and focus lands on
 * the new run's status, which a screen reader announces. Runs are held by the emulator, never slowed.
 */
import { test, expect, openExample } from './fixtures';
import { holdNode, release, untilHeld } from './holds';

test('Ctrl+Enter in a workflow field runs it, and focus goes to the run status', async ({ page, openApp, emulator }) => {
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/');
	await openExample(page, 'Text to image');
	await expect(page.getByRole('heading', { level: 1, name: 'Text to image' })).toBeVisible();
	const text = page.getByRole('region', { name: 'Node CLIP Text Encode (Positive)' }).getByRole('textbox', { name: 'text' });
	await text.fill('a lighthouse in fog');
	await text.press('Control+Enter');
	// The textarea kept its text (Enter with Ctrl adds no line), and the run started.
	await expect(text).toHaveValue('a lighthouse in fog');
	const status = page.getByRole('region', { name: 'Runs started' }).getByRole('status').first();
	await expect(status).toBeFocused();
	await expect(status).toContainText(/Run status: (Sending|Queued|Running)/);
	await untilHeld(emulator);
	await release(emulator);
	await expect(status).toContainText('Run status: Done', { timeout: 20_000 });
});

test('Cmd+Enter in a model field runs it, and focus goes to the run status', async ({ page, openApp }) => {
	await openApp('/models/lumen/flux-1');
	const form = page.getByRole('form', { name: 'Input of lumen/flux-1' });
	await expect(page.getByRole('heading', { level: 1, name: 'Flux 1' })).toBeVisible({ timeout: 15_000 });
	const prompt = form.getByRole('textbox', { name: 'Prompt', exact: true });
	await prompt.fill('A lighthouse at dusk');
	await prompt.press('Meta+Enter');
	const status = page.getByRole('region', { name: 'Runs of this model' }).getByRole('status').first();
	await expect(status).toBeFocused();
	await expect(status).toHaveText('Succeeded', { timeout: 20_000 });
});
