/**
 * Acting on many jobs and runs at once (issue 32): the Queue page picks many (Shift for a range,
 * select all) and cancels them in one batch call where the server has one (a current ComfyUI), job by
 * job where it has not (ComfyUI 0.3.64), each job saying what the server confirmed; the Runs page
 * deletes from the server's own history too where it keeps one; a bundle carries the server's version.
 */
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect, openExample, test, workflowControl } from './fixtures';
import { addLocalProfile, heldInTheQueue } from './local-helpers';
import { release } from './holds';

/** Picks every job: a range (the first box, then the last with Shift), after trying select all both ways. */
async function pickAll(page: Page): Promise<void> {
	const boxes = page.getByRole('checkbox', { name: 'Select Text to image' });
	await expect(boxes).toHaveCount(3);
	await page.getByRole('checkbox', { name: 'Select all (3)' }).check();
	await expect(page.getByRole('button', { name: 'Cancel selected (3)' })).toBeEnabled();
	await page.getByRole('checkbox', { name: 'Select all (3)' }).uncheck();
	await expect(page.getByRole('button', { name: 'Cancel selected (0)' })).toBeDisabled();
	await boxes.first().click();
	await boxes.last().click({ modifiers: ['Shift'] });
	await expect(page.getByRole('button', { name: 'Cancel selected (3)' })).toBeEnabled();
}

/** How each server is asked to cancel three jobs, and the calls that asking takes. */
const cancelCases = [
	{
		title: 'a current local ComfyUI: the Queue page cancels a running job and two waiting ones in one batch call, each confirmed @phone',
		scenario: 'comfyui-local',
		how: 'in one batch call',
		calls: { 'POST /api/jobs/cancel': 1, 'POST /api/jobs/:id/cancel': 0, 'POST /api/queue': 0, 'POST /api/interrupt': 0 }
	},
	{
		title:
			'ComfyUI 0.3.64 has no batch cancel: the Queue page cancels job by job (queue delete, then interrupt) and says what each did @phone',
		scenario: 'comfyui-local-legacy',
		// Never a route 0.3.64 lacks: each waiting job by its own queue delete, the running one interrupted.
		how: 'one by one',
		calls: { 'POST /api/jobs/cancel': 0, 'POST /api/jobs/:id/cancel': 0, 'POST /api/queue': 2, 'POST /api/interrupt': 1 }
	}
] as const;

for (const { title, scenario, how, calls } of cancelCases)
	test(title, async ({ page, openApp, emulator, control }) => {
		test.setTimeout(120_000);
		await control.scenario(scenario);
		await heldInTheQueue(page, emulator, openApp, 3);
		await pickAll(page);
		const before = (await control.counters()).requests;
		await page.getByRole('button', { name: 'Cancel selected (3)' }).click();
		await expect(
			page.getByRole('status').filter({ hasText: `Local ComfyUI was asked to cancel 3 jobs ${how} and confirmed 3 cancelled.` })
		).toBeVisible({ timeout: 15_000 });
		const results = page.getByRole('list', { name: 'What the server did with each job' });
		await expect(results.getByRole('listitem').filter({ hasText: 'removed from the queue (confirmed)' })).toHaveCount(2);
		await expect(results.getByRole('listitem').filter({ hasText: 'stopped (confirmed)' })).toHaveCount(1);
		const after = (await control.counters()).requests;
		const made = Object.fromEntries(Object.keys(calls).map((route) => [route, (after[route] ?? 0) - (before[route] ?? 0)]));
		expect(made, 'the cancel calls, and nothing else').toEqual(calls);
		await release(emulator);
		await expect(page.getByText('Nothing is running.')).toBeVisible({ timeout: 15_000 });
		await expect(page.getByText('Nothing is waiting.')).toBeVisible();
		await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
		await expect(page.getByRole('link', { name: /^Run Text to image, cancelled/ })).toHaveCount(2, { timeout: 15_000 });
		await expect(page.getByRole('link', { name: /^Run Text to image, interrupted/ })).toHaveCount(1, { timeout: 15_000 });
	});

test("the Runs page deletes from a local ComfyUI's own history too, and Undo brings back this device's record only @phone", async ({
	page,
	openApp,
	emulator,
	control
}) => {
	test.setTimeout(120_000);
	await control.scenario('comfyui-local');
	await workflowControl(emulator, 'timing', { stepMs: 2 });
	await openApp('/settings');
	await addLocalProfile(page, emulator);
	await openExample(page, 'Text to image');
	await page.getByLabel('Run times').fill('2');
	await page.getByRole('button', { name: 'Run 2 times' }).click();
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	await expect(page.getByRole('link', { name: /^Run Text to image, succeeded/ })).toHaveCount(2, { timeout: 20_000 });
	const history = async () => Object.keys((await (await fetch(`${emulator.urls.workflow}/api/history`)).json()) as object).length;
	expect(await history()).toBe(2);

	await page.getByRole('checkbox', { name: 'Select all 2' }).check();
	await expect(page.getByRole('button', { name: 'Delete 2 from history on this device' })).toBeVisible();
	await page.getByRole('button', { name: 'Delete 2 here and on the server' }).click();
	await expect(page.getByRole('group', { name: 'Confirm delete on the server' })).toContainText("The server's delete cannot be undone.");
	await page.getByRole('button', { name: 'Yes, delete here and on the server' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Local ComfyUI deleted 2 of 2 from its own history' })).toBeVisible({
		timeout: 15_000
	});
	await expect(page.getByRole('status').filter({ hasText: "Undo brings back this device's record only" })).toBeVisible();
	expect(await history()).toBe(0);
	await page.getByRole('button', { name: 'Undo delete of 2 runs' }).click();
	await expect(page.getByRole('link', { name: /^Run Text to image, succeeded/ })).toHaveCount(2);
	expect(await history(), 'the server’s delete stays').toBe(0);
});

test("a run bundle carries the server's version from /system_stats (ComfyUI 0.3.64) @phone", async ({
	page,
	openApp,
	emulator,
	control
}) => {
	test.setTimeout(90_000);
	await control.scenario('comfyui-local-legacy');
	await workflowControl(emulator, 'timing', { stepMs: 2 });
	await openApp('/settings');
	await addLocalProfile(page, emulator);
	await openExample(page, 'Text to image');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Text to image' }).click();
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Export bundle' }).click();
	const saved = await download;
	await expect(page.getByRole('status').filter({ hasText: 'Server: local-comfyui, version 0.3.64.' })).toBeVisible();
	const manifest = JSON.parse(new TextDecoder().decode(unzipSync(readFileSync((await saved.path())!))['runboard-bundle.json'])) as {
		server: { surface: string; version: string };
	};
	expect(manifest.server).toEqual({ surface: 'local-comfyui', version: '0.3.64' });
});
