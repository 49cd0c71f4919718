import { test, expect, hasHorizontalScroll } from './fixtures';
import { latestModelRun } from './models-helpers';

test('the form widgets work on a 390 px phone: variant switch, list of objects (add, reorder, remove), advanced fold, examples, copy as curl without the key', async ({
	page,
	context,
	openApp,
	emulator
}) => {
	await context.grantPermissions(['clipboard-read', 'clipboard-write']);
	await page.setViewportSize({ width: 390, height: 844 });
	await openApp('/models/lumen/flux-1-lora');
	const form = page.getByRole('form', { name: 'Input of lumen/flux-1-lora' });
	await expect(form).toBeVisible({ timeout: 15_000 });

	// Examples as quick fill.
	await form.getByRole('button', { name: 'Use example 1 for Prompt' }).click();
	await expect(form.getByRole('textbox', { name: 'Prompt', exact: true })).toHaveValue(/lighthouse/);

	// Optional fields sit behind the advanced fold.
	const advanced = form.getByText(/Advanced \(\d+ optional\)/);
	await advanced.click();

	// anyOf: a preset size or a custom width and height.
	const size = form.getByRole('radiogroup', { name: 'Kind of Image size' });
	await size.getByRole('radio', { name: 'Image Size', exact: true }).check();
	await expect(form.getByRole('spinbutton', { name: 'Width' })).toHaveValue('512');

	// A list of objects: add two LoRAs, move the second up, remove one.
	await form.getByRole('button', { name: 'Add Lora' }).click();
	await form.getByRole('button', { name: 'Add Lora' }).click();
	const first = form.locator('[data-field="loras.0.path"]').getByRole('textbox');
	const second = form.locator('[data-field="loras.1.path"]').getByRole('textbox');
	await first.fill('https://example.com/a.safetensors');
	await second.fill('https://example.com/b.safetensors');
	await form.getByRole('button', { name: 'Move Lora 2 up' }).click();
	await expect(form.locator('[data-field="loras.0.path"]').getByRole('textbox')).toHaveValue('https://example.com/b.safetensors');
	await form.getByRole('button', { name: 'Remove Lora 2' }).click();
	await expect(form.locator('[data-field^="loras."][data-field$=".path"]')).toHaveCount(1);
	expect(await hasHorizontalScroll(page)).toBe(false);

	// Copy as curl: the body as typed, the key never written out.
	await form.getByRole('button', { name: 'Copy as curl' }).click();
	const curl = await page.evaluate(() => navigator.clipboard.readText());
	expect(curl).toContain('$ROUTER_API_KEY');
	expect(curl).not.toContain(emulator.apiKey);
	expect(curl).toContain('"loras":[{"path":"https://example.com/b.safetensors"');
	expect(curl).toContain('"image_size":{"width":512,"height":512}');

	// The last inputs come back on the next visit once a run was started.
	await form.getByRole('button', { name: 'Run now' }).click();
	await expect(latestModelRun(page).getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	expect(await hasHorizontalScroll(page)).toBe(false);
	await page.reload();
	await expect(form.getByRole('textbox', { name: 'Prompt', exact: true })).toHaveValue(/lighthouse/, { timeout: 15_000 });
});

test('an output of an earlier run is offered as the image input of another model', async ({ page, openApp }) => {
	await openApp('/models/lumen/flux-1');
	const t2i = page.getByRole('form', { name: 'Input of lumen/flux-1' });
	await t2i.getByRole('textbox', { name: 'Prompt', exact: true }).fill('a red boat');
	await t2i.getByRole('button', { name: 'Run now' }).click();
	await expect(latestModelRun(page).getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	await page.getByRole('link', { name: '← All models' }).click();
	// The tile's name is the model's id until its schema arrives, then its title: found by where it leads.
	await page.locator('a[href="/models/lumen/flux-1-redux"]').click();
	const i2i = page.getByRole('form', { name: 'Input of lumen/flux-1-redux' });
	await i2i.getByRole('textbox', { name: 'Prompt', exact: true }).fill('the same boat at night');
	const earlier = i2i.getByRole('combobox', { name: 'Use an earlier output for Image url' });
	await earlier.selectOption({ label: 'image from lumen/flux-1: a red boat (images.0.url)' });
	await expect(i2i.getByRole('textbox', { name: 'Image url' })).toHaveValue(/^http.*X-Goog-Signature=/);
	await i2i.getByRole('button', { name: 'Run now' }).click();
	await expect(latestModelRun(page).getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
});

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

test('a picked file is sent inline as a data URI, with a preview', async ({ page, openApp }) => {
	await openApp('/models/lumen/flux-1-redux');
	const form = page.getByRole('form', { name: 'Input of lumen/flux-1-redux' });
	await expect(form).toBeVisible({ timeout: 15_000 });
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('repaint this pixel');
	await form.getByText('Choose a file for Image url').setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: PNG });
	await expect(form.getByText(`File attached inline (${PNG.length} bytes)`)).toBeVisible();
	await expect(form.getByRole('img', { name: 'Preview of Image url' })).toBeVisible();
	await form.getByRole('button', { name: 'Run now' }).click();
	const run = latestModelRun(page);
	await expect(run.getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	// The picked file is the edit's input: it slides against the result.
	await expect(page.getByRole('slider', { name: 'Before and after: show 50 % of Input image' })).toBeVisible({ timeout: 15_000 });
});
