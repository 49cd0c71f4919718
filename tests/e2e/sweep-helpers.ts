/** What the sweep journeys share: the grid's cells, its progress line, and its picture's round trip. */
import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';

export const CELLS = '[data-cell]';

export const sweepProgress = (page: Page) => page.getByRole('status', { name: 'Sweep progress' });

/**
 * Saves the open sweep's grid as one PNG, drops it on the Workflows page as a person would, and
 * expects it to reopen this sweep as it ended (`finished`, the progress line's words).
 */
export async function reopenFromGridPicture(page: Page, finished: string): Promise<void> {
	const sweepUrl = page.url();
	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Save grid as PNG' }).click();
	const picture = await (await download).path();
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	await page
		.getByLabel('Workflow file to import')
		.setInputFiles({ name: 'sweep-grid.png', mimeType: 'image/png', buffer: readFileSync(picture) });
	await expect(page).toHaveURL(sweepUrl);
	await expect(sweepProgress(page)).toHaveText(finished);
}

/**
 * Opens the storage page from the main menu and gives the sweep's row once it says `holds` (its
 * thumbnails and posters are made in the worker as cells end; the page reads its figures as it opens).
 */
export async function sweepOnStoragePage(page: Page, title: string, holds: string): Promise<Locator> {
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
	// The link's navigation is the app's own: a reload before it lands reloads the sweep page instead.
	await expect(page).toHaveURL(/\/settings$/);
	const held = page.getByRole('table', { name: 'Sweeps on this device' }).getByRole('row', { name: new RegExp(title) });
	await expect(async () => {
		await page.reload();
		await expect(held).toContainText(holds, { timeout: 2_000 });
	}).toPass({ timeout: 20_000 });
	return held;
}

/** Presses "Free the sweep" on its storage row: the dialog that asks to confirm. */
export async function askToFreeSweep(page: Page, held: Locator, title: string): Promise<Locator> {
	await held.getByRole('button', { name: `Free the sweep ${title}` }).click();
	return page.getByRole('dialog', { name: `Free the sweep “${title}”?` });
}

/** Frees the sweep's cached outputs, as the dialog offers (posters and thumbnails kept), and waits for its row to say so. */
export async function freeSweep(page: Page, held: Locator, title: string): Promise<void> {
	await (await askToFreeSweep(page, held, title)).getByRole('button', { name: /^Free \d/ }).click();
	await expect(held).toContainText('0 cached outputs (0 B)');
}
