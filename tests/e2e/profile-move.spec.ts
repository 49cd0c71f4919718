import { devices } from '@playwright/test';
import { test, expect } from './fixtures';

test('a profile moves to a phone by link or QR code, without its key', async ({ page, browser, openApp, emulator }) => {
	await openApp('/settings');
	const demo = page.getByRole('article', { name: 'Profile Demo (local emulator)' });
	await demo.getByRole('button', { name: 'Move Demo (local emulator) to a phone' }).click();
	await expect(demo.getByRole('img', { name: 'QR code of the profile link' })).toBeVisible();
	const link = await demo.getByRole('textbox', { name: 'Profile link' }).inputValue();
	expect(link).not.toContain(emulator.apiKey);

	const phone = await browser.newContext({ ...devices['Pixel 7'], viewport: { width: 390, height: 844 } });
	try {
		const phonePage = await phone.newPage();
		await phonePage.goto(link);
		await expect(phonePage.getByRole('status').filter({ hasText: 'The key is never in the link' })).toBeVisible();
		const form = phonePage.getByRole('form', { name: 'New profile' });
		await expect(form.getByLabel('Workflow service URL')).toHaveValue(emulator.urls.workflow);
		await expect(form.getByLabel('Model router URL')).toHaveValue(emulator.urls.router);
		await expect(form.getByLabel('API key', { exact: true })).toHaveValue('');
		await form.getByLabel('Name').fill('Studio (phone)');
		await form.getByLabel('API key', { exact: true }).fill(emulator.apiKey);
		await form.getByRole('button', { name: 'Save profile' }).click();
		const card = phonePage.getByRole('article', { name: 'Profile Studio (phone)' });
		await expect(card).toContainText('Saved on this device');
		await card.getByRole('button', { name: 'Test connection of Studio (phone)' }).click();
		await expect(card.getByRole('region', { name: /Connection test/ })).toContainText('Model catalog: OK');
	} finally {
		await phone.close();
	}
});

test('a damaged profile link is refused with a message', async ({ page, app }) => {
	await page.goto(`${app.url}/settings?profile=garbage`);
	await expect(page.getByRole('alert').filter({ hasText: 'This profile link is damaged' })).toBeVisible();
});
