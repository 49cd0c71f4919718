import { test, expect, workflowControl, runExample } from './fixtures';
import { latestModelRun } from './models-helpers';

test('Settings shows the storage used and frees the oldest cached outputs', async ({ page, openApp, emulator }) => {
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/');
	await runExample(page, 'Text to image');
	await expect(page.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ })).toBeVisible({ timeout: 20_000 });

	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
	const storage = page.getByRole('region', { name: 'Storage' });
	await expect(storage).toContainText(/Cached outputs: 1 \(\d+(\.\d)? KB\)/);
	await expect(storage).toContainText(/Using .* of the .* this browser allows/);
	// What holds the space: the parts add up to what the browser reports.
	const parts = storage.getByRole('table', { name: 'What holds the space' });
	for (const part of [
		'Run and workflow records',
		'Cached outputs (1)',
		'Model schemas and node definitions',
		'Workflow and sweep thumbnails'
	])
		await expect(parts.getByRole('rowheader', { name: part })).toBeVisible();
	const usage = Number(await storage.locator('[data-usage]').getAttribute('data-usage'));
	const shown = await parts.locator('td[data-bytes]').evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-bytes'))));
	expect(shown.reduce((a, b) => a + b, 0)).toBe(usage);
	expect(shown[0]).toBeGreaterThan(0);
	expect(shown[1]).toBeGreaterThan(0);
	const reported = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
	expect(Math.abs(reported - usage)).toBeLessThan(Math.max(64 * 1024, usage * 0.1));
	await storage.getByRole('button', { name: 'Free space: remove the oldest cached outputs' }).click();
	await expect(storage.getByRole('status')).toContainText('Removed 1 cached output');
	await expect(storage).toContainText('Cached outputs: 0 (0 B)');

	const keep = storage.getByRole('button', { name: 'Keep my data' });
	if (await keep.isVisible()) {
		await keep.click();
		await expect(storage.getByRole('status')).toContainText(/The browser (will keep|declined)/);
	}
});

test('freeing space removes a model result’s saved bytes too; the run stays and shows its image from its link', async ({
	page,
	openApp
}) => {
	await openApp('/models/lumen/flux-1');
	const form = page.getByRole('form', { name: 'Input of lumen/flux-1' });
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('A harbour at night');
	await form.getByRole('button', { name: 'Run now' }).click();
	const run = latestModelRun(page);
	await expect(run.getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	await expect(run).toContainText('bytes saved on this device');

	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
	const storage = page.getByRole('region', { name: 'Storage' });
	await expect(storage).toContainText(/Cached outputs: 2 \(/);
	await storage.getByRole('button', { name: 'Free space: remove the oldest cached outputs' }).click();
	await expect(storage.getByRole('status')).toContainText(/Removed [12] cached output/);

	await openApp('/models/lumen/flux-1');
	const after = latestModelRun(page);
	await expect(after.getByRole('status')).toHaveText('Succeeded');
	await expect(after).toContainText('no longer saved on this device');
	const image = after.getByRole('img', { name: /image 1 of Direct run/ });
	await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
});
