import { openSync, writeSync, closeSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { Emulator } from '../../emulator/index';
import { test, expect, openExample } from './fixtures';

const MiB = 1024 * 1024;

// Writing and choosing a 300 MB file takes a while on a busy machine.
test.describe.configure({ timeout: 120_000 });
/** The service answers this late, so the file is still being sent when the user gives up. */
const SLOW_MS = 3000;

/** A large file on disk, 300 MB unless told (a buffer that large cannot cross to the browser as one). */
function largeFile(path: string, mib = 300): string {
	const fd = openSync(path, 'w');
	const chunk = Buffer.alloc(4 * MiB, 7);
	for (let i = 0; i < Math.floor(mib / 4); i++) writeSync(fd, chunk);
	writeSync(fd, Buffer.alloc((mib % 4) * MiB, 7));
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

/** The input names the service holds (LoadImage's list in its node definitions). */
async function storedInputs(emulator: Emulator): Promise<string[]> {
	const res = await fetch(`${emulator.urls.workflow}/api/object_info`, { headers: { 'X-API-Key': emulator.apiKey } });
	const info = (await res.json()) as { LoadImage: { input: { required: { image: [string[]] } } } };
	return info.LoadImage.input.required.image[0];
}

test('an upload under way is stopped by Cancel: its bytes are never stored', async ({ page, openApp, control, emulator }, testInfo) => {
	// Under the service's upload limit (100 MiB), so only the cancel can keep it from being stored.
	const path = largeFile(testInfo.outputPath('large.png'), 64);
	// A runtime without from-hash: the bytes go up at once, after the small file taught the app so.
	await control.scenario('comfyui-local');
	await openApp('/');
	await openExample(page, 'Image edit');
	const node = page.getByRole('region', { name: 'Node Load Image' });
	await node
		.locator('input[type=file]')
		.first()
		.setInputFiles({ name: 'small.png', mimeType: 'image/png', buffer: Buffer.alloc(1024, 1) });
	await expect(node.getByLabel(/^image: (image|file name) on the service$/)).toHaveValue(/small\.png$/);

	await control.faults({ slowMs: SLOW_MS });
	await node.locator('input[type=file]').first().setInputFiles(path);
	await expect(node.getByRole('status')).toContainText('Uploading', { timeout: 30_000 });
	await node.getByRole('button', { name: 'Cancel sending the file for image' }).click();
	await expect(node.getByText(/^Cancelled/)).toBeVisible();
	await expect(node.getByRole('status')).toBeHidden();

	await page.waitForTimeout(SLOW_MS + 1500);
	await control.faults({ slowMs: 0 });
	const stored = await storedInputs(emulator);
	expect(stored.some((name) => name.endsWith('small.png'))).toBe(true);
	expect(
		stored.filter((name) => name.includes('large')),
		'the cancelled upload stored nothing'
	).toEqual([]);
});
