import { readFile } from 'node:fs/promises';
import { test, expect, workflowControl, runExample } from './fixtures';

test('history exports with its outputs and imports on another device', async ({ page, browser, app, openApp, emulator }) => {
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/');
	await runExample(page, 'Text to image');
	await expect(page.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ })).toBeVisible({ timeout: 20_000 });

	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
	const history = page.getByRole('region', { name: 'History' });
	const download = page.waitForEvent('download');
	await history.getByRole('button', { name: 'Export history' }).click();
	const file = await download;
	const text = await readFile((await file.path())!, 'utf8');
	expect(text).not.toContain(emulator.apiKey);

	const other = await browser.newContext();
	try {
		const otherPage = await other.newPage();
		await otherPage.goto(`${app.url}/settings`);
		await otherPage
			.getByLabel('History file to import')
			.setInputFiles({ name: 'history.json', mimeType: 'application/json', buffer: Buffer.from(text) });
		await expect(otherPage.getByRole('region', { name: 'History' }).getByRole('status')).toContainText(
			'Imported 1 run and 1 cached output'
		);
		await otherPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
		await otherPage.getByRole('link', { name: 'Run Text to image, succeeded' }).click();
		await expect(otherPage.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ })).toBeVisible();
	} finally {
		await other.close();
	}
});
