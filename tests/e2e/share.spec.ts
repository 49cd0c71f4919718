/**
 * Carrying runs and workflows to someone else: a run bundle made on one device opens read-only on
 * another, whose Reuse finds the input files on the server by hash (zero input bytes sent); a share
 * link opens the workflow as a preview; a hostile bundle is refused with why. Bundles and links are
 * checked for credentials like every request.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { strToU8, unzipSync, zipSync } from 'fflate';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, expectNoCredentials, openExample, test, workflowControl } from './fixtures';

async function picture(seed: number): Promise<Buffer> {
	return sharp({ create: { width: 96, height: 64, channels: 3, background: { r: seed % 255, g: 90, b: 200 } } })
		.png()
		.toBuffer();
}

/** Another device: a fresh browser context of the same size and kind as this test's project. */
async function anotherDevice(browser: Browser): Promise<BrowserContext> {
	const { viewport, hasTouch, isMobile, deviceScaleFactor } = test.info().project.use;
	return browser.newContext({
		...(viewport ? { viewport } : {}),
		...(hasTouch !== undefined ? { hasTouch } : {}),
		...(isMobile !== undefined ? { isMobile } : {}),
		...(deviceScaleFactor !== undefined ? { deviceScaleFactor } : {})
	});
}

/** The JSON a bundle carries, inflated: what a leak check must read (the zip deflates it). */
function bundleTexts(zip: Uint8Array): string {
	const entries = unzipSync(zip);
	return Object.entries(entries)
		.filter(([name]) => name.endsWith('.json'))
		.map(([, bytes]) => new TextDecoder().decode(bytes))
		.join('\n');
}

async function runImageEdit(page: Page, bytes: Buffer): Promise<void> {
	await openExample(page, 'Image edit');
	const node = page.getByRole('region', { name: 'Node Load Image' });
	await node.locator('input[type=file]').first().setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer: bytes });
	await expect(node.getByLabel(/^image: (image|file name) on the service$/)).toHaveValue(/^[0-9a-f]{12}_cat\.png$/);
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Image edit' }).click();
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	await expect(page.getByRole('img', { name: /^Output / }).first()).toBeVisible({ timeout: 15_000 });
}

test('a run bundle made on one device opens read-only on another, and Reuse runs it with no input bytes sent @phone', async ({
	page,
	browser,
	app,
	openApp,
	control,
	emulator
}) => {
	test.setTimeout(120_000);
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/');
	const bytes = await picture(21);
	await runImageEdit(page, bytes);

	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Export bundle' }).click();
	const saved = await download;
	expect(saved.suggestedFilename()).toBe('Image edit.runboard.zip');
	await expect(page.getByRole('status').filter({ hasText: /^Saved Image edit\.runboard\.zip/ })).toBeVisible();
	const zip = readFileSync((await saved.path())!);
	expectNoCredentials(bundleTexts(zip), emulator, 'the bundle');
	const before = await control.counters();

	const other = await anotherDevice(browser);
	try {
		const second = await other.newPage();
		await second.goto(`${app.url}/workflows`);
		await second
			.getByLabel('Workflow file to import')
			.setInputFiles({ name: 'Image edit.runboard.zip', mimeType: 'application/zip', buffer: zip });
		await expect(second.getByRole('heading', { name: 'Image edit', level: 1 })).toBeVisible();
		await expect(second.getByRole('note')).toContainText('read-only');
		await expect(second.getByRole('img', { name: /^Output / }).first()).toBeVisible();
		await expect(second.getByRole('region', { name: 'Input files' })).toContainText(/cat\.png · .* · BLAKE3 [0-9a-f]{16}… · checked/);
		// Shown, not run: opening sent nothing to the server (the app's own reads of its queue aside).
		const posts = (requests: Record<string, number>) => Object.entries(requests).filter(([route]) => route.startsWith('POST'));
		expect(posts((await control.counters()).requests)).toEqual(posts(before.requests));

		await second.getByRole('button', { name: 'Run again with these inputs' }).click();
		const form = second.getByRole('form', { name: 'Run form' });
		await expect(form).toBeVisible({ timeout: 15_000 });
		await expect(
			second.getByRole('region', { name: 'Node Load Image' }).getByLabel(/^image: (image|file name) on the service$/)
		).toHaveValue(/^[0-9a-f]{12}_cat\.png$/);
		await second.getByRole('button', { name: 'Run', exact: true }).click();
		await second.getByRole('link', { name: 'Open run Image edit' }).click();
		await expect(second.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });

		const after = await control.counters();
		expect(after.requests['POST /api/assets/from-hash'], 'the input was offered by hash').toBe(
			(before.requests['POST /api/assets/from-hash'] ?? 0) + 1
		);
		expect(after.requests['POST /api/upload/image'] ?? 0, 'and not uploaded again').toBe(before.requests['POST /api/upload/image'] ?? 0);
		expect(after.uploadBytes, 'zero input bytes sent (emulator counter)').toEqual(before.uploadBytes);
	} finally {
		await other.close();
	}
});

test('a share link opens the workflow as a read-only preview, and "Open in my profile" gives its form with the values @phone', async ({
	page,
	browser,
	openApp,
	emulator
}) => {
	test.setTimeout(90_000);
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/');
	await openExample(page, 'Text to image');
	await page
		.getByRole('region', { name: 'Node CLIP Text Encode (Positive)' })
		.getByRole('textbox', { name: 'text' })
		.fill('a heron in the reeds');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Text to image' }).click();
	await page.getByRole('button', { name: 'Share link' }).click();
	await expect(page.getByRole('status').filter({ hasText: /never sent to a server|API workflow/ })).toBeVisible();
	const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
	expect(new URL(link).pathname).toBe('/workflows');
	expect(new URL(link).search, 'the workflow rides in the fragment only').toBe('');
	expectNoCredentials(link, emulator, 'the share link');

	const other = await anotherDevice(browser);
	try {
		const second = await other.newPage();
		const sent: string[] = [];
		second.on('request', (request) => sent.push(request.url()));
		await second.goto(link);
		await expect(second.getByRole('heading', { name: 'Text to image', level: 1 })).toBeVisible();
		await expect(second.getByRole('note')).toContainText('read-only preview');
		await expect(second.getByRole('region', { name: 'Inputs' })).toContainText('a heron in the reeds');
		expect(
			sent.filter((url) => url.includes('#') || url.includes('w1=')),
			'no request carries the fragment'
		).toEqual([]);

		await second.getByRole('button', { name: 'Open in my profile' }).click();
		await expect(second.getByRole('form', { name: 'Run form' })).toBeVisible({ timeout: 15_000 });
		await expect(
			second.getByRole('region', { name: 'Node CLIP Text Encode (Positive)' }).getByRole('textbox', { name: 'text' })
		).toHaveValue('a heron in the reeds');
	} finally {
		await other.close();
	}
});

test('a hostile bundle is refused with why, in one line @phone', async ({ page, openApp }) => {
	await openApp('/workflows');
	const choose = page.getByLabel('Workflow file to import');
	const escaping = zipSync({ 'runboard-bundle.json': strToU8('{}'), '../../evil.sh': strToU8('rm -rf ~') });
	await choose.setInputFiles({ name: 'evil.runboard.zip', mimeType: 'application/zip', buffer: Buffer.from(escaping) });
	await expect(page.getByRole('alert')).toHaveText(
		'evil.runboard.zip was not opened: Refused: the entry "../../evil.sh" leaves the bundle or has an empty part.'
	);
	await choose.setInputFiles({ name: 'photo.zip', mimeType: 'application/zip', buffer: await picture(3) });
	await expect(page.getByRole('alert')).toHaveText('photo.zip was not opened: This is not a zip file: it has no zip directory at its end.');
	await expect(page.getByRole('heading', { name: 'Workflows', level: 1 })).toBeVisible();
});
