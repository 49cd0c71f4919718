/**
 * A job another client started on a local ComfyUI: ComfyUI sends its progress only to that client, so
 * this app hears when it starts and ends. It shows Running with a start time, and claims no node count.
 */
import { test, expect } from './fixtures';
import { addLocalProfile } from './local-helpers';
import { holdNode, release, untilHeld } from './holds';
import { CORE_GRAPHS } from '../../emulator/workflow/core-graphs.fixture';

test('another client’s running job reads Running with its start time, and no node count this app is not sent', async ({
	page,
	openApp,
	emulator,
	control
}) => {
	await control.scenario('comfyui-local');
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/settings');
	await addLocalProfile(page, emulator);
	const submitted = await fetch(`${emulator.urls.workflow}/prompt`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ prompt: CORE_GRAPHS[0]!.prompt, client_id: 'another-client' })
	});
	expect(submitted.status).toBe(200);
	await untilHeld(emulator);
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	const row = page.getByRole('link', { name: /\(started elsewhere\), running:/ });
	await expect(row).toBeVisible({ timeout: 20_000 });
	await row.click();
	await expect(page.locator('main header').getByText('Running', { exact: true })).toBeVisible();
	await expect(page.getByRole('definition').nth(2), 'Started is a time').toHaveText(/\d/);
	await expect(page.getByText('Running · its progress goes only to the client that started it')).toBeVisible();
	await expect(page.getByText(/ nodes done/)).toHaveCount(0);
	await release(emulator);
	await expect(page.locator('main header').getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
});
