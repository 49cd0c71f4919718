/** A Local ComfyUI profile for the emulator, made active from the Settings page. */
import { expect, type Page } from '@playwright/test';
import type { Emulator } from '../../emulator/index';

export async function addLocalProfile(page: Page, emulator: Emulator): Promise<void> {
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: /Local ComfyUI/ }).check();
	await form.getByLabel('Workflow service URL').fill(emulator.urls.workflow);
	await form.getByRole('button', { name: 'Save profile' }).click();
	await page.getByRole('button', { name: 'Use Local ComfyUI' }).click();
	await expect(page.getByRole('link', { name: /Connection: Local ComfyUI, Live/ })).toBeVisible();
}
