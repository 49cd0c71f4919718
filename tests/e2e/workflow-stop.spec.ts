/**
 * Cancel lands in a chosen node, on purpose: the emulator holds that node until the stop arrives
 * (the timing control's `holdNode` without `ms`: a stop of the job releases it) and a test socket
 * says when it has started. A stop is read at the next node boundary, so a cancel during the last
 * node is too late.
 */
import type { Page } from '@playwright/test';
import type { Emulator } from '../../emulator/index';
import { RecordingSocket } from '../../emulator/workflow/test-support';
import { untilHeld } from './holds';
import { test, expect, workflowControl, runExample, type Control } from './fixtures';

/** Runs Text to image, presses Cancel run once node `nodeId` has started, and checks that the stop reached the server inside that node. */
async function cancelDuring(page: Page, control: Control, emulator: Emulator, socket: RecordingSocket, nodeId: string): Promise<void> {
	await runExample(page, 'Text to image');
	await expect(page.getByRole('button', { name: 'Cancel run' })).toBeEnabled();
	await socket.until(() => socket.json('executing').some((m) => m.data['node'] === nodeId), 20_000);
	expect((await untilHeld(emulator)).map((n) => n.nodeId)).toEqual([nodeId]);
	await page.getByRole('button', { name: 'Cancel run' }).click();
	const stopsSent = async () =>
		Object.entries((await control.counters()).requests)
			.filter(([route]) => /^POST \/api\/(interrupt|queue|jobs\/)/.test(route))
			.reduce((sum, [, n]) => sum + n, 0);
	await expect.poll(stopsSent, { timeout: 15_000 }).toBeGreaterThan(0);
	// Nothing but a stop of the job lets the held node go: it ran until the stop reached the server.
	await untilHeld(emulator, 0);
}

test('a cancel during the last node is too late: the run is done and says the cancel came too late', async ({
	page,
	openApp,
	emulator,
	control
}) => {
	await workflowControl(emulator, 'timing', { stepMs: 5, holdNode: { classType: 'SaveImage' } });
	const socket = await RecordingSocket.open(emulator);
	await openApp('/');
	await cancelDuring(page, control, emulator, socket, '9');
	await expect(page.getByRole('status').filter({ hasText: 'The job finished before the cancel took effect.' })).toBeVisible({
		timeout: 20_000
	});
	await expect(page.getByText('Done', { exact: true })).toBeVisible();
	await expect(page.getByRole('region', { name: 'Outputs' }).getByRole('img').first()).toBeVisible({ timeout: 15_000 });
	await expect(page.getByText(/cancelled/i)).toHaveCount(0);
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	await expect(page.getByRole('link', { name: 'Run Text to image, succeeded' })).toHaveCount(1, { timeout: 15_000 });
	socket.close();
});

test('a cancel during a node before the last stops the run as the next node starts, before it runs', async ({
	page,
	openApp,
	emulator,
	control
}) => {
	await workflowControl(emulator, 'timing', { stepMs: 5, holdNode: { classType: 'VAEDecode' } });
	const socket = await RecordingSocket.open(emulator);
	await openApp('/');
	await cancelDuring(page, control, emulator, socket, '8');
	// ComfyUI reads the stop as Save Image starts and names it; the decoder had finished.
	await expect(page.getByRole('status').filter({ hasText: /^Interrupted at Save Image/ })).toBeVisible({ timeout: 20_000 });
	await expect(page.getByRole('region', { name: 'Outputs' }).getByRole('img')).toHaveCount(0);
	await expect(page.getByText('The job finished before the cancel took effect.')).toHaveCount(0);
	socket.close();
});
