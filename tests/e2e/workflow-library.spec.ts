import sharp from 'sharp';
import { test, expect, openExample } from './fixtures';

test('saved workflows can be renamed, duplicated, exported and deleted', async ({ page, openApp }) => {
	await openApp('/');
	await openExample(page, 'Text to image');
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	const card = page.getByRole('article', { name: 'Workflow Text to image' });
	await card.getByRole('button', { name: 'Rename Text to image' }).click();
	await card.getByLabel('New name').fill('Lighthouses');
	await card.getByRole('button', { name: 'Save name' }).click();
	const renamed = page.getByRole('article', { name: 'Workflow Lighthouses', exact: true });
	await expect(renamed).toBeVisible();

	await renamed.getByRole('button', { name: 'Duplicate Lighthouses', exact: true }).click();
	await expect(page.getByRole('article', { name: 'Workflow Lighthouses (copy)' })).toBeVisible();

	const download = page.waitForEvent('download');
	await renamed.getByRole('button', { name: 'Export Lighthouses', exact: true }).click();
	const file = await download;
	expect(file.suggestedFilename()).toBe('Lighthouses.json');
	const exported = JSON.parse(await (await import('node:fs/promises')).readFile((await file.path())!, 'utf8')) as Record<
		string,
		{ class_type: string }
	>;
	expect(exported['3']?.class_type).toBe('KSampler');

	await page.getByRole('button', { name: 'Delete Lighthouses (copy)' }).click();
	await expect(page.getByRole('article', { name: 'Workflow Lighthouses (copy)' })).toHaveCount(0);
	await page.reload();
	await expect(page.getByRole('article', { name: 'Workflow Lighthouses', exact: true })).toBeVisible();
});

test('a workflow file dropped on the page is imported', async ({ page, openApp }) => {
	await openApp('/workflows');
	const workflow = JSON.stringify({ '1': { class_type: 'EmptyImage', inputs: { width: 64, height: 64, batch_size: 1, color: 0 } } });
	const data = await page.evaluateHandle((text) => {
		const transfer = new DataTransfer();
		transfer.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
		return transfer;
	}, workflow);
	await page.getByRole('region', { name: 'Import a workflow' }).dispatchEvent('drop', { dataTransfer: data });
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('dropped');
});

test('partner nodes are marked and run with the key sent as api_key_service_org', async ({ page, openApp }) => {
	await openApp('/');
	await openExample(page, 'Partner nodes');
	await expect(page.getByText('Partner node').first()).toBeVisible();
	await expect(page.getByText('uses partner nodes, sent with your API key')).toBeVisible();
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Partner nodes' }).click();
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 30_000 });
	await expect(page.getByRole('img', { name: /^Output / }).first()).toBeVisible();
	await expect(page.locator('audio')).toHaveCount(1);
});

test('a mask can be chosen as a file or painted with a finger, and is uploaded against its image', async ({ page, openApp, control }) => {
	await openApp('/');
	await openExample(page, 'Image edit');
	const node = page.getByRole('region', { name: 'Node Load Image' });
	const picture = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#3a7' } })
		.png()
		.toBuffer();
	await node.locator('input[type=file]').first().setInputFiles({ name: 'leaf.png', mimeType: 'image/png', buffer: picture });
	const value = node.getByLabel(/^image: (image|file name) on the service$/);
	await expect(value).toHaveValue(/_leaf\.png$/);

	const mask = await sharp({ create: { width: 80, height: 60, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } })
		.png()
		.toBuffer();
	await node.locator('input[type=file]').nth(1).setInputFiles({ name: 'mask.png', mimeType: 'image/png', buffer: mask });
	await expect.poll(async () => (await control.counters()).requests['POST /api/upload/mask']).toBe(1);
	await expect(value).toHaveValue(/_mask\.png$/);

	await node.getByRole('button', { name: 'Paint a mask' }).click();
	const canvas = node.getByLabel('Paint the mask here');
	const box = (await canvas.boundingBox())!;
	await page.mouse.move(box.x + 10, box.y + 10);
	await page.mouse.down();
	await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
	await page.mouse.up();
	await node.getByRole('button', { name: 'Use this mask' }).click();
	await expect.poll(async () => (await control.counters()).requests['POST /api/upload/mask']).toBe(2);

	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Image edit' }).click();
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
});

test.describe('on a phone', () => {
	test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

	test('the run form starts with the main inputs only', async ({ page, openApp }) => {
		await openApp('/');
		await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).tap();
		await page.getByRole('button', { name: 'Open example Text to image' }).tap();
		await expect(page.getByRole('checkbox', { name: 'Main inputs only' })).toBeChecked();
		await expect(page.getByRole('spinbutton', { name: 'seed', exact: true })).toBeVisible();
		await expect(page.getByRole('combobox', { name: 'sampler name' })).toHaveCount(0);
		await page.getByRole('checkbox', { name: 'Main inputs only' }).uncheck();
		await expect(page.getByRole('combobox', { name: 'sampler name' })).toBeVisible();
		expect(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(false);
	});
});
