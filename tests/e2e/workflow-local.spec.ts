import type { Page } from '@playwright/test';
import type { Emulator } from '../../emulator/index';
import { test, expect, workflowControl, runExample, openExample, type Control } from './fixtures';
import { addLocalProfile } from './local-helpers';

/** The emulator as a stock local ComfyUI, and a Local ComfyUI profile for it, made active. */
async function useLocalComfyUI(page: Page, emulator: Emulator, control: Control, openApp: (path?: string) => Promise<void>): Promise<void> {
	await control.scenario('comfyui-local');
	await openApp('/settings');
	await addLocalProfile(page, emulator);
}

test('the core flow works unchanged against a stock local ComfyUI', async ({ page, openApp, emulator, control }) => {
	test.setTimeout(90_000);
	await useLocalComfyUI(page, emulator, control, openApp);

	await runExample(page, 'Text to image');
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	await expect(page.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ })).toBeVisible();
});

test('a ComfyUI started without the CORS flag is named on the workflow page with the flag to add, and Run waits for it', async ({
	page,
	openApp,
	emulator,
	control,
	app
}) => {
	test.setTimeout(90_000);
	await useLocalComfyUI(page, emulator, control, openApp);
	// The definitions are seen once; then the server is restarted without --enable-cors-header.
	await openExample(page, 'Text to image');
	await workflowControl(emulator, 'cors', { enableCorsHeader: false });
	await expect(page.getByRole('link', { name: /Connection: Local ComfyUI, Refuses this app/ })).toBeVisible({ timeout: 15_000 });
	await page.reload();
	const refusal = page.getByRole('alert', { name: 'The server refuses this app' });
	await expect(refusal).toBeVisible({ timeout: 15_000 });
	await expect(refusal.locator('code')).toHaveText(`--enable-cors-header ${new URL(app.url).origin}`);
	const run = page.getByRole('button', { name: 'Run', exact: true });
	await expect(run).toBeDisabled();

	await workflowControl(emulator, 'cors', { enableCorsHeader: true });
	await refusal.getByRole('button', { name: 'Try again' }).click();
	await expect(refusal).toBeHidden({ timeout: 15_000 });
	await expect(page.getByRole('link', { name: /Connection: Local ComfyUI, Live/ })).toBeVisible({ timeout: 15_000 });
	await expect(run).toBeEnabled();
	await run.click();
	await page.getByRole('link', { name: 'Open run Text to image' }).click();
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
});
