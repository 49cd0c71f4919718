import { test, expect, openExample, runExample, workflowControl } from './fixtures';
import { holdNode, oneStepWhileWatched, release } from './holds';

test('import the classic text-to-image workflow, edit prompt and seed, run it, watch previews and get the image', async ({
	page,
	openApp,
	emulator
}) => {
	// The sampler is held as it starts, until the run's page is open to see its steps.
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/');
	await openExample(page, 'Text to image');

	const positive = page.getByRole('region', { name: 'Node CLIP Text Encode (Positive)' });
	await positive.getByRole('textbox', { name: 'text' }).fill('a lighthouse at dusk, oil painting');
	const sampler = page.getByRole('region', { name: 'Node KSampler' });
	await sampler.getByRole('spinbutton', { name: 'seed', exact: true }).fill('1234');
	await sampler.getByRole('combobox', { name: 'seed after each run' }).selectOption('fixed');
	await page.getByRole('button', { name: 'Run', exact: true }).click();

	await page.getByRole('link', { name: 'Open run Text to image' }).click();
	await expect(page.getByRole('region', { name: 'Live progress' })).toBeVisible();
	await oneStepWhileWatched(emulator);
	await expect(page.getByRole('img', { name: /Latest preview from KSampler/ })).toBeVisible();
	await expect(page.getByText(/Running KSampler: step \d+ of 20/)).toBeVisible();
	await release(emulator);

	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	const output = page.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ });
	await expect(output).toBeVisible();
	expect(await output.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(512);
	await expect(page.getByText(/Seeds used: 3 · seed = 1234/)).toBeVisible();
	await page.getByText('The workflow as sent (API format)').click();
	await expect(page.locator('pre', { hasText: 'a lighthouse at dusk, oil painting' })).toBeVisible();

	// The run is in the Runs list, and the seed stayed fixed in the form.
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	await expect(page.getByRole('link', { name: 'Run Text to image, succeeded' })).toBeVisible();
});

test('a run started before a reload finishes and shows its image after it @phone', async ({ page, openApp, emulator }) => {
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/');
	await runExample(page, 'Text to image');
	await expect(page.getByRole('region', { name: 'Live progress' })).toBeVisible();
	await oneStepWhileWatched(emulator);
	await expect(page.getByText(/Running KSampler/)).toBeVisible();
	await page.reload();
	await release(emulator);
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	await expect(page.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ })).toBeVisible();
});

test('dropping every socket mid-run still ends with the final image', async ({ page, openApp, emulator }) => {
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/');
	await runExample(page, 'Text to image');
	await expect(page.getByRole('region', { name: 'Live progress' })).toBeVisible();
	await oneStepWhileWatched(emulator);
	await expect(page.getByText(/Running KSampler: step/)).toBeVisible();
	const res = await fetch(`${emulator.urls.workflow}/__emulator/sockets/drop`, { method: 'POST' });
	expect(((await res.json()) as { dropped: number }).dropped).toBeGreaterThan(0);
	// The rest of the run happens while the socket is down or coming back.
	await release(emulator);
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	await expect(page.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ })).toBeVisible();
});

test('a run the server answers from its cache (instant) shows its picture like any other @phone', async ({ page, openApp, emulator }) => {
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/');
	await openExample(page, 'Text to image');
	const sampler = page.getByRole('region', { name: 'Node KSampler' });
	await sampler.getByRole('combobox', { name: 'seed after each run' }).selectOption('fixed');
	const pane = page.getByRole('region', { name: 'Run and results' });
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await expect(pane.getByRole('img', { name: /Output ComfyUI_/ })).toBeVisible({ timeout: 20_000 });
	if (test.info().project.name === 'phone') await page.getByRole('button', { name: 'Back to the form' }).click();
	// The same inputs again: every node comes from the server's cache, and the run ends at once.
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	const tile = pane.getByRole('region', { name: 'Runs started' }).getByRole('article').first();
	await expect(tile.getByRole('status')).toContainText('Done', { timeout: 20_000 });
	await expect(tile.getByRole('img', { name: /Output ComfyUI_/ })).toBeVisible({ timeout: 10_000 });
	expect(await tile.getByRole('img', { name: /Output ComfyUI_/ }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
});
