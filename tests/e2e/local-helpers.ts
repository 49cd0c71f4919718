/** A Local ComfyUI profile for the emulator, made active from the Settings page; runs held in its queue. */
import { expect, type Page } from '@playwright/test';
import type { Emulator } from '../../emulator/index';
import { openExample } from './fixtures';
import { holdNode, untilHeld } from './holds';

export async function addLocalProfile(page: Page, emulator: Emulator): Promise<void> {
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: /Local ComfyUI/ }).check();
	await form.getByLabel('Workflow service URL').fill(emulator.urls.workflow);
	await form.getByRole('button', { name: 'Save profile' }).click();
	await page.getByRole('button', { name: 'Use Local ComfyUI' }).click();
	await expect(page.getByRole('link', { name: /Connection: Local ComfyUI, Live/ })).toBeVisible();
}

/**
 * `times` runs of Text to image on a local ComfyUI, the first held in its sampler and the rest
 * waiting behind it; then the Queue page, once it lists them.
 */
export async function heldInTheQueue(
	page: Page,
	emulator: Emulator,
	openApp: (path: string) => Promise<void>,
	times: number
): Promise<void> {
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/settings');
	await addLocalProfile(page, emulator);
	await openExample(page, 'Text to image');
	await page.getByLabel('Run times').fill(String(times));
	await page.getByRole('button', { name: `Run ${times} times` }).click();
	await expect(page.getByRole('link', { name: 'Open run Text to image' })).toHaveCount(times);
	await untilHeld(emulator);
	await page.goto(new URL('/queue', page.url()).toString());
	await expect(page.getByRole('heading', { name: `Waiting (${times - 1})` })).toBeVisible({ timeout: 15_000 });
}
