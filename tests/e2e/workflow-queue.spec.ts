import { test, expect, openExample, workflowControl } from './fixtures';

test('cancel a waiting job and interrupt the running one from the queue', async ({ page, openApp, emulator }) => {
	await workflowControl(emulator, 'timing', { stepMs: 500 });
	await openApp('/');
	await openExample(page, 'Text to image');
	await page.getByLabel('Run times').fill('2');
	await page.getByRole('button', { name: 'Run 2 times' }).click();
	await expect(page.getByRole('link', { name: 'Open run Text to image' })).toHaveCount(2);

	await page.goto(page.url().replace(/\/workflows\/.*$/, '/queue'));
	await expect(page.getByRole('heading', { name: 'Waiting (1)' })).toBeVisible();
	await page.getByRole('checkbox', { name: 'Select Text to image' }).check();
	await page.getByRole('button', { name: 'Cancel selected (1)' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Cancelled 1 job.' })).toBeVisible();
	await expect(page.getByRole('heading', { name: 'Waiting (0)' })).toBeVisible();

	await page.getByRole('button', { name: 'Interrupt Text to image' }).click();
	await expect(page.getByText('Nothing is running.')).toBeVisible({ timeout: 15_000 });

	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	// The waiting job left the queue before it started: cancelled. The running one was stopped mid-run: interrupted.
	await expect(page.getByRole('link', { name: 'Run Text to image, cancelled' })).toHaveCount(1, { timeout: 15_000 });
	await expect(page.getByRole('link', { name: 'Run Text to image, interrupted' })).toHaveCount(1);
});
