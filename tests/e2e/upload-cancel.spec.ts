import { openSync, writeSync, closeSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, openExample } from './fixtures';

const MiB = 1024 * 1024;
/** The service answers this late, so the file is still being sent when the user gives up. */
const SLOW_MS = 3000;

/** A 300 MB file on disk (a buffer that large cannot cross to the browser as one). */
function largeFile(path: string): string {
	const fd = openSync(path, 'w');
	const chunk = Buffer.alloc(16 * MiB, 7);
	for (let i = 0; i < 300 / 16; i++) writeSync(fd, chunk);
	writeSync(fd, Buffer.alloc((300 % 16) * MiB, 7));
	closeSync(fd);
	return path;
}

async function chooseLargeFile(page: Page, path: string) {
	const node = page.getByRole('region', { name: 'Node Load Image' });
	await node.locator('input[type=file]').first().setInputFiles(path);
	await expect(node.getByRole('status'), 'the progress of hashing and sending is shown').toBeVisible();
	return node;
}

test('sending a large file can be cancelled: it stops, says so, and no upload reaches the service', async ({
	page,
	openApp,
	control
}, testInfo) => {
	const path = largeFile(testInfo.outputPath('large.png'));
	await openApp('/');
	await openExample(page, 'Image edit');
	await control.faults({ slowMs: SLOW_MS });
	const node = await chooseLargeFile(page, path);
	await node.getByRole('button', { name: 'Cancel sending the file for image' }).click();
	await expect(node.getByText(/^Cancelled/)).toBeVisible();
	await expect(node.getByRole('status')).toBeHidden();
	await expect(node.getByLabel(/^image: (image|file name) on the service$/)).not.toHaveValue(/large\.png/);

	// Long enough for a send that was not really stopped to reach the service.
	await page.waitForTimeout(SLOW_MS + 1500);
	const counters = await control.counters();
	expect(counters.requests['POST /api/upload/image'] ?? 0, 'no upload was sent').toBe(0);
	await expect(node.getByRole('status')).toBeHidden();
});

test('sending a large file stops when its page goes', async ({ page, openApp, control }, testInfo) => {
	const path = largeFile(testInfo.outputPath('large.png'));
	await openApp('/');
	await openExample(page, 'Image edit');
	await control.faults({ slowMs: SLOW_MS });
	await chooseLargeFile(page, path);
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();

	await page.waitForTimeout(SLOW_MS + 1500);
	const counters = await control.counters();
	expect(counters.requests['POST /api/upload/image'] ?? 0, 'no upload was sent after the page went').toBe(0);
});
