/**
 * A pool of two real ComfyUI servers (#31), by hand: RUNBOARD_COMFYUI_URL and RUNBOARD_COMFYUI2_URL,
 * with RUNBOARD_COMFYUI2_PAUSE / _RESUME (e.g. `kill -STOP <pid>` / `kill -CONT <pid>`: a server that
 * hangs, then answers again) and RUNBOARD_COMFYUI2_STOP / _START (a restart). Skipped without them.
 */
import type { Page } from '@playwright/test';
import { chainWorkflow, COMFYUI_URL } from './real-servers';
import { expect, pasteWorkflow, runCommand, test } from './real-app';

const SECOND_URL = process.env['RUNBOARD_COMFYUI2_URL']?.replace(/\/$/, '') || null;
const COMMANDS = ['RUNBOARD_COMFYUI2_PAUSE', 'RUNBOARD_COMFYUI2_RESUME', 'RUNBOARD_COMFYUI2_STOP', 'RUNBOARD_COMFYUI2_START'];

test.skip(!COMFYUI_URL || !SECOND_URL || COMMANDS.some((c) => !process.env[c]), 'two real ComfyUI servers and their commands not named');

async function addServer(page: Page, name: string, url: string): Promise<void> {
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: /^Local ComfyUI/ }).check();
	await form.getByLabel('Name').fill(name);
	await form.getByLabel('Workflow service URL').fill(url);
	await form.getByRole('button', { name: 'Save profile' }).click();
	await expect(page.getByRole('article', { name: `Profile ${name}` })).toBeVisible();
}

async function toPools(page: Page): Promise<void> {
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
	await page.getByRole('link', { name: 'Manage pools' }).click();
}

test.setTimeout(600_000);

test('two real servers in a pool: one that hangs and is said gone answers after all, one that restarts comes back', async ({
	page,
	app
}) => {
	await page.goto(`${app.url}/settings`);
	await addServer(page, 'Real A', COMFYUI_URL!);
	await addServer(page, 'Real B', SECOND_URL!);
	await page.getByRole('link', { name: 'Manage pools' }).click();
	await page.getByRole('button', { name: 'Add pool' }).click();
	const form = page.getByRole('form', { name: 'New pool' });
	await form.getByLabel('Name').fill('Real');
	for (const name of ['Real A', 'Real B'])
		await form
			.getByRole('group', { name: `Member ${name}` })
			.getByRole('checkbox', { name })
			.check();
	await form.getByRole('button', { name: 'Save pool' }).click();
	await expect(page.getByRole('article', { name: 'Pool Real' })).toBeVisible();

	// Two slow runs pinned to B: one runs, one waits.
	await pasteWorkflow(page, chainWorkflow(12));
	await page.getByLabel('Run on').selectOption({ label: 'Pool Real' });
	await page.getByLabel('Member').selectOption({ label: 'Real B' });
	await page.getByLabel('Run times').fill('2');
	await page.getByRole('button', { name: 'Run 2 times', exact: true }).click();
	await toPools(page);
	const laneB = page.getByRole('region', { name: 'Lane Real B' });
	await expect(laneB.getByRole('listitem', { name: /^Running: / })).toHaveCount(1, { timeout: 60_000 });
	await expect(laneB.getByRole('listitem', { name: /^Waiting: / })).toHaveCount(1);
	console.log('lane B while running:', (await laneB.innerText()).replace(/\s+/g, ' '));

	// B hangs: its lane says it does not answer; the person says it is gone, and B answers again before the confirm.
	runCommand('RUNBOARD_COMFYUI2_PAUSE');
	await expect(laneB).toContainText('Real B is not answering', { timeout: 90_000 });
	console.log('lane B hung:', (await laneB.innerText()).replace(/\s+/g, ' '));
	await laneB.getByRole('button', { name: 'Real B is gone…' }).click();
	const dialog = page.getByRole('dialog', { name: 'Treat Real B as gone?' });
	console.log('dialog:', (await dialog.innerText()).replace(/\s+/g, ' '));
	runCommand('RUNBOARD_COMFYUI2_RESUME');
	await dialog.getByRole('button', { name: 'Send its waiting runs elsewhere' }).click();
	const notice = page.getByRole('status').filter({ hasText: 'Real B is switched off' });
	await expect(notice).toBeVisible({ timeout: 90_000 });
	console.log('notice:', await notice.innerText());
	const laneA = page.getByRole('region', { name: 'Lane Real A' });
	console.log('lane A after gone:', (await laneA.innerText()).replace(/\s+/g, ' '));

	// B restarts: it forgot its run; its lane says it answers again, and the person switches it on.
	runCommand('RUNBOARD_COMFYUI2_STOP');
	await expect(laneB).toContainText('Real B is not answering', { timeout: 60_000 });
	runCommand('RUNBOARD_COMFYUI2_START');
	await expect(laneB).toContainText('Real B answers again', { timeout: 90_000 });
	console.log('lane B back:', (await laneB.innerText()).replace(/\s+/g, ' '));
	await laneB.getByRole('button', { name: 'Switch Real B on' }).click();
	await expect(laneB.getByRole('heading', { name: /Real B/ })).not.toContainText('off');
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	// The waiting run went to A and ends there; the one B ran ends lost, saying why; none is sent twice.
	await expect(page.getByRole('link', { name: /^Run Pasted workflow, succeeded/ })).toHaveCount(1, { timeout: 300_000 });
	const rows = await page.getByRole('link', { name: /^Run / }).allInnerTexts();
	console.log('runs:', rows.map((n) => n.replace(/\s+/g, ' ')).join(' | '));
	await page.getByRole('link', { name: /^Run Pasted workflow, lost/ }).click();
	console.log('lost run:', (await page.locator('main').innerText()).replace(/\s+/g, ' ').slice(0, 600));
});
