import { test, expect, workflowControl, runExample } from './fixtures';

test('the core flow works unchanged against a stock local ComfyUI', async ({ page, openApp, emulator, control }) => {
	await control.scenario('comfyui-local');
	await workflowControl(emulator, 'timing', { stepMs: 60 });
	await openApp('/settings');
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: /Local ComfyUI/ }).check();
	await form.getByLabel('Workflow service URL').fill(emulator.urls.workflow);
	await form.getByRole('button', { name: 'Save profile' }).click();
	await page.getByRole('button', { name: 'Use Local ComfyUI' }).click();
	await expect(page.getByRole('link', { name: /Connection: Local ComfyUI, Live/ })).toBeVisible();

	await runExample(page, 'Text to image');
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	await expect(page.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ })).toBeVisible();
});
