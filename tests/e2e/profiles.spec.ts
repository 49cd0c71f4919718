import { test, expect } from './fixtures';

test('the demo profile is set up from the running emulator and its connection test passes', async ({ page, openApp }) => {
	await openApp('/settings');
	const demo = page.getByRole('article', { name: 'Profile Demo (local emulator)' });
	await expect(demo).toContainText('Saved on this device');
	await expect(demo.getByText('Active')).toBeVisible();
	await demo.getByRole('button', { name: 'Test connection of Demo (local emulator)' }).click();
	const report = demo.getByRole('region', { name: 'Connection test of Demo (local emulator)' });
	await expect(report).toContainText('Node list: OK');
	await expect(report).toContainText('Live updates: OK');
	await expect(report).toContainText('Model catalog: OK');
	await expect(page.getByRole('link', { name: /Connection: Demo \(local emulator\), Live/ })).toBeVisible();
});

test('a profile can be created, edited, tested and deleted, and survives a reload', async ({ page, openApp, emulator }) => {
	await openApp('/settings');
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: /Cloud/ }).check();
	await form.getByLabel('Name').fill('My cloud');
	await form.getByLabel('Workflow service URL').fill(`${emulator.urls.workflow}/`);
	await form.getByLabel('Model router URL').fill(emulator.urls.router);
	await form.getByLabel('API key', { exact: true }).fill(emulator.apiKey);
	await form.getByRole('button', { name: 'Save profile' }).click();

	const card = page.getByRole('article', { name: 'Profile My cloud' });
	await expect(card).toContainText(emulator.urls.workflow);
	await expect(card).toContainText('Saved on this device');

	await page.reload();
	await expect(card).toBeVisible();
	await card.getByRole('button', { name: 'Edit My cloud' }).click();
	const edit = page.getByRole('form', { name: 'Edit profile My cloud' });
	await expect(edit.getByLabel('API key', { exact: true })).toHaveValue('');
	await edit.getByLabel('Name').fill('Studio cloud');
	await edit.getByRole('button', { name: 'Save profile' }).click();
	const renamed = page.getByRole('article', { name: 'Profile Studio cloud' });
	await expect(renamed).toBeVisible();

	await renamed.getByRole('button', { name: 'Test connection of Studio cloud' }).click();
	await expect(renamed.getByRole('region', { name: /Connection test/ })).toContainText('Model catalog: OK');

	await page.reload();
	await renamed.getByRole('button', { name: 'Delete Studio cloud' }).click();
	const dialog = page.getByRole('dialog', { name: 'Delete profile Studio cloud?' });
	await expect(dialog).toContainText('Its runs can stay in your history');
	await dialog.getByRole('button', { name: 'Delete profile, keep runs' }).click();
	await expect(renamed).toHaveCount(0);
	await page.reload();
	await expect(page.getByRole('article', { name: 'Profile Demo (local emulator)' })).toBeVisible();
	await expect(page.getByRole('article', { name: 'Profile Studio cloud' })).toHaveCount(0);
});

test('a bad address or missing name is explained at the field', async ({ page, openApp }) => {
	await openApp('/settings');
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: /Cloud/ }).check();
	await form.getByLabel('Name').fill('');
	await form.getByLabel('Workflow service URL').fill('localhost:8188');
	await form.getByRole('button', { name: 'Save profile' }).click();
	await expect(form.getByText('Give the profile a name.')).toBeVisible();
	await expect(form.getByLabel('Workflow service URL')).toHaveAttribute('aria-invalid', 'true');
	await expect(form.getByText(/Use an http:\/\/ or https:\/\/ address|is not a URL/)).toBeVisible();
});

test('the Local ComfyUI preset needs no key and has no router', async ({ page, openApp }) => {
	await openApp('/settings');
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: /Local ComfyUI/ }).check();
	await expect(form.getByLabel('Workflow service URL')).toHaveValue('http://127.0.0.1:8188');
	await expect(form.getByLabel('Model router URL')).toHaveValue('');
	await expect(form.getByText('A local ComfyUI needs no key.')).toBeVisible();
});

test('forgetting a key removes it and the live connection asks for one', async ({ page, openApp }) => {
	await openApp('/settings');
	const demo = page.getByRole('article', { name: 'Profile Demo (local emulator)' });
	await demo.getByRole('button', { name: 'Forget the key of Demo (local emulator)' }).click();
	await expect(demo).toContainText('None saved');
	await expect(page.getByRole('link', { name: /Connection: Demo \(local emulator\), Key refused/ })).toBeVisible();
	await page.reload();
	await expect(demo).toContainText('None saved');
});

test('the API key is kept out of localStorage, the page and the URL', async ({ page, openApp, emulator }) => {
	await openApp('/settings');
	await expect(page.getByRole('article', { name: 'Profile Demo (local emulator)' })).toContainText('Saved on this device');
	const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }));
	expect(storage).not.toContain(emulator.apiKey);
	expect(await page.content()).not.toContain(emulator.apiKey);
	expect(page.url()).not.toContain(emulator.apiKey);
});

test('clear all local data asks first, then starts over from the demo', async ({ page, openApp }) => {
	await openApp('/settings');
	await page.getByRole('radio', { name: 'Dark' }).check();
	await page.getByRole('button', { name: 'Clear all local data' }).click();
	const dialog = page.getByRole('dialog', { name: 'Clear all local data?' });
	await dialog.getByRole('button', { name: 'Clear everything' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'All local data was cleared.' })).toHaveCount(1);
	await expect(page.getByRole('radio', { name: 'Follow the system' })).toBeChecked();
	await expect(page.getByRole('article', { name: 'Profile Demo (local emulator)' })).toBeVisible();
});

test('two tabs share one live socket', async ({ context, app, control }) => {
	const first = await context.newPage();
	await first.goto(app.url);
	await expect(first.getByRole('link', { name: /Connection: .*Live/ })).toBeVisible();
	const second = await context.newPage();
	await second.goto(app.url);
	await expect(second.getByRole('link', { name: /Connection: .*Live/ })).toBeVisible();
	const counters = await control.counters();
	expect(counters.requests['GET /ws']).toBe(1);
});
