/** Shared steps of the pool journeys: profiles added through the form, a pool's Run target, runs sent from the form. */
import { expect, type Page } from '@playwright/test';
import type { Emulator } from '../../emulator/index';

/** A Local ComfyUI profile named `name` for `emulator`, made through the Settings form. */
export async function addLocalServer(page: Page, name: string, emulator: Emulator): Promise<void> {
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: /Local ComfyUI/ }).check();
	await form.getByLabel('Name').fill(name);
	await form.getByLabel('Workflow service URL').fill(emulator.urls.workflow);
	await form.getByRole('button', { name: 'Save profile' }).click();
	await expect(page.getByRole('article', { name: `Profile ${name}` })).toBeVisible();
}

/** On a phone the runs' pane covers the form after Run: back to the form before using it again. */
export async function toForm(page: Page, phone: boolean): Promise<void> {
	if (!phone) return;
	const back = page.getByRole('button', { name: 'Back to the form' });
	// The pane may be sliding open or shut (a refused run shuts it): settle on shut.
	await expect(async () => {
		if (await back.isVisible()) await back.click({ timeout: 2000 });
		await expect(back).toBeHidden({ timeout: 2000 });
	}).toPass();
}

/** Where the form's runs go: pool `pool`, and a member or (null) the pool's choice. */
export async function runOn(page: Page, phone: boolean, pool: string, member: string | null): Promise<void> {
	await toForm(page, phone);
	await page.getByLabel('Run on').selectOption({ label: `Pool ${pool}` });
	await page.getByLabel('Member').selectOption({ label: member ?? 'Any: the pool chooses' });
}

/** Runs the open workflow once; resolves once it is sent, with the runs' pane in view. */
export async function runOnce(page: Page, phone: boolean): Promise<void> {
	await toForm(page, phone);
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await expect(page.getByRole('button', { name: 'Sending…' })).toHaveCount(0);
}

/** The runs the form started, newest first. */
export const runTiles = (page: Page) => page.getByRole('region', { name: 'Runs started' }).getByRole('article');
