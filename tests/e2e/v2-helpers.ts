/** Shared steps of the v2 end-to-end specs: the self-hosted proxy's control, and a profile added through the form. */
import { expect, type Page } from '@playwright/test';
import type { Emulator } from '../../emulator/index';

export async function proxySettings(emulator: Emulator, body: Record<string, unknown>): Promise<void> {
	const res = await fetch(`${emulator.urls.workflow}/__emulator/v2/self-hosted`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body)
	});
	expect(res.ok).toBe(true);
}

export type Kind = 'Cloud' | 'Deployment' | 'Self-hosted proxy';

/** Adds a profile of that kind through the form and makes it the active one. */
export async function addProfile(page: Page, emulator: Emulator, kind: Kind, { use = true }: { use?: boolean } = {}): Promise<void> {
	await page.goto(new URL('/settings', page.url()).toString());
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: new RegExp(`^${kind}`) }).check();
	if (kind === 'Cloud') {
		await form.getByLabel('Workflow service URL').fill(emulator.urls.workflow);
		await form.getByRole('textbox', { name: 'API key' }).fill(emulator.apiKey);
	} else if (kind === 'Deployment') {
		await form.getByLabel('Deployment address').fill(emulator.urls.deployment);
		await form.getByRole('textbox', { name: 'API key' }).fill(emulator.deploymentKey);
	} else {
		await form.getByLabel('Proxy address').fill(emulator.urls.selfHosted);
		await form.getByLabel('ComfyUI address (behind the proxy)').fill(emulator.urls.workflow);
	}
	await form.getByRole('button', { name: 'Save profile' }).click();
	// The first profile added beside the demo may already be the active one; wait for its card before asking.
	await expect(page.getByRole('article', { name: `Profile ${kind}` })).toBeVisible();
	if (!use) return;
	const useButton = page.getByRole('button', { name: `Use ${kind}` });
	if (await useButton.isVisible()) await useButton.click();
	await expect(page.getByRole('link', { name: new RegExp(`Connection: ${kind}, Live`) })).toBeVisible();
}
