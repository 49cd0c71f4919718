import { test, expect, openExample } from './fixtures';
import { holdNode, oneStepWhileWatched, release } from './holds';

test('a second device on the same profile sees a run started on the first, live, to its image @phone', async ({
	page,
	browser,
	app,
	openApp,
	emulator
}) => {
	test.setTimeout(90_000);
	// The sampler is held as it starts, so the phone finds the run running however long it takes.
	await holdNode(emulator, { classType: 'KSampler' });
	const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
	try {
		const phone = await phoneContext.newPage();
		await phone.goto(`${app.url}/`);
		await expect(phone.getByRole('link', { name: /Connection: .*Live/ })).toBeVisible();

		await openApp('/');
		await openExample(page, 'Text to image');
		await page.getByRole('button', { name: 'Run', exact: true }).click();

		const seen = phone.getByRole('link', { name: /Run Save Image \(started elsewhere\), (queued|running)/ });
		await expect(seen).toBeVisible({ timeout: 15_000 });
		await seen.tap();
		await expect(phone.getByRole('region', { name: 'Live progress' })).toBeVisible();
		await oneStepWhileWatched(emulator);
		await expect(phone.getByText(/Running KSampler: step \d+ of 20/)).toBeVisible({ timeout: 15_000 });
		await release(emulator);
		await expect(phone.getByText('Done', { exact: true })).toBeVisible({ timeout: 30_000 });
		await expect(phone.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ })).toBeVisible();

		// The device that started it keeps exactly its own record, never an "elsewhere" copy.
		await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
		await expect(page.getByRole('link', { name: 'Run Text to image, succeeded' })).toHaveCount(1);
		await expect(page.getByRole('link', { name: /started elsewhere/ })).toHaveCount(0);
	} finally {
		await phoneContext.close();
	}
});
