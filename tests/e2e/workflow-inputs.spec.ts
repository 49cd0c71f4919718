import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { test, expect, openExample, workflowControl } from './fixtures';

async function picture(seed: number): Promise<Buffer> {
	return sharp({ create: { width: 96, height: 64, channels: 3, background: { r: seed % 255, g: 120, b: 200 } } })
		.png()
		.toBuffer();
}

async function chooseImage(page: Page, nodeName: string, name: string, buffer: Buffer): Promise<void> {
	const node = page.getByRole('region', { name: nodeName });
	await node.locator('input[type=file]').first().setInputFiles({ name, mimeType: 'image/png', buffer });
	await expect(node.getByLabel(/^image: (image|file name) on the service$/)).toHaveValue(new RegExp(`^[0-9a-f]{12}_${name}$`));
}

test('an input uploaded twice sends its bytes only once, then the workflow runs on it', async ({ page, openApp, control }) => {
	await openApp('/');
	await openExample(page, 'Image edit');
	const bytes = await picture(7);
	await chooseImage(page, 'Node Load Image', 'cat.png', bytes);
	let counters = await control.counters();
	expect(counters.requests['POST /api/assets/from-hash']).toBe(1);
	expect(counters.requests['POST /api/upload/image']).toBe(1);

	await chooseImage(page, 'Node Load Image', 'cat.png', bytes);
	// The field already shows this name from the first pick: wait for the second offer itself.
	await expect.poll(async () => (await control.counters()).requests['POST /api/assets/from-hash']).toBe(2);
	counters = await control.counters();
	expect(counters.requests['POST /api/upload/image'], 'known content costs zero uploaded bytes').toBe(1);

	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Image edit' }).click();
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	await expect(page.getByRole('img', { name: /^Output / }).first()).toBeVisible();
	// Inputs used shows the picture the run loaded, read back from the service, not only its file name.
	const loaded = page.getByRole('region', { name: 'Inputs used' }).getByRole('img', { name: /· image$/ });
	await expect(loaded).toBeVisible({ timeout: 15_000 });
	await expect.poll(() => loaded.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([96, 64]);
});

test('a name the service does not know is shown at its field', async ({ page, openApp }) => {
	await openApp('/');
	await openExample(page, 'Image edit');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	const node = page.getByRole('region', { name: 'Node Load Image' });
	await expect(node.getByRole('alert')).toContainText('Invalid image file');
	await expect(page.getByRole('alert', { name: 'The service refused the run' })).toContainText('HTTP 400');
});

test('an output image re-opens the workflow that made it, and feeds another run as input', async ({ page, openApp, emulator }) => {
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/');
	await openExample(page, 'Text to image');
	await page
		.getByRole('region', { name: 'Node CLIP Text Encode (Positive)' })
		.getByRole('textbox', { name: 'text' })
		.fill('a paper boat on a pond');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Text to image' }).click();
	const output = page.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ });
	await expect(output).toBeVisible({ timeout: 20_000 });
	// The output's object URL can be replaced (and the old one revoked) as the run's last update lands: read the current one.
	let bytes: number[] = [];
	await expect(async () => {
		bytes = await output.evaluate(async (img: HTMLImageElement) => Array.from(new Uint8Array(await (await fetch(img.src)).arrayBuffer())));
	}).toPass({ timeout: 10_000 });
	const png = Buffer.from(bytes);
	await page.getByRole('button', { name: 'Use as input' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Copied ComfyUI_' })).toBeVisible();

	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	await page.locator('#import-file').setInputFiles({ name: 'boat.png', mimeType: 'image/png', buffer: png });
	await expect(page.getByRole('region', { name: 'Node CLIP Text Encode (Positive)' }).getByRole('textbox', { name: 'text' })).toHaveValue(
		'a paper boat on a pond'
	);

	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	await page.getByRole('button', { name: 'Open example Image edit' }).click();
	await page.getByRole('button', { name: /Use copied output \(ComfyUI_\d+_\.png\)/ }).click();
	await expect(page.getByRole('region', { name: 'Node Load Image' }).getByRole('img', { name: /Chosen image/ })).toBeVisible();
});

test('what cannot be imported is explained: malformed JSON, an empty or unconvertible UI workflow, an unknown node type', async ({
	page,
	openApp
}) => {
	await openApp('/workflows');
	const paste = page.getByLabel('Or paste the workflow JSON');
	await paste.fill('{"3": {"class_type": "KSampler",, }}');
	await page.getByRole('button', { name: 'Import pasted JSON' }).click();
	await expect(page.getByRole('alert')).toContainText('This is not valid JSON');

	await paste.fill('{"nodes": [], "links": [], "version": 0.4}');
	await page.getByRole('button', { name: 'Import pasted JSON' }).click();
	await expect(page.getByRole('alert')).toContainText('has no nodes that run');

	const ui = {
		nodes: [{ id: 1, type: 'UpscaleWithMagic', title: 'Magic', properties: { cnr_id: 'magic-pack' } }],
		links: [],
		version: 0.4
	};
	await paste.fill(JSON.stringify(ui));
	await page.getByRole('button', { name: 'Import pasted JSON' }).click();
	// Kept even though it cannot run here: it is saved, and the pack is named.
	await expect(page.getByRole('alert', { name: 'What to install' })).toContainText(
		'Node type UpscaleWithMagic: from the node pack "magic-pack": install it on this server'
	);
	await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();

	// A core node of a newer ComfyUI is named as ComfyUI's own, with the version that has it.
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	const core = { nodes: [{ id: 1, type: 'NewerCoreNode', properties: { cnr_id: 'comfy-core', ver: '0.3.70' } }], links: [], version: 0.4 };
	await paste.fill(JSON.stringify(core));
	await page.getByRole('button', { name: 'Import pasted JSON' }).click();
	const notice = page.getByRole('alert', { name: 'What to install' });
	await expect(notice).toContainText(
		'Node type NewerCoreNode: a core node of ComfyUI (ComfyUI 0.3.70 has it): update ComfyUI on this server'
	);
	await expect(notice).not.toContainText('node pack');
	await expect(page.getByRole('alert', { name: 'Problems in this workflow' })).toContainText(
		'a core node of ComfyUI (ComfyUI 0.3.70 has it)'
	);
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();

	await paste.fill(JSON.stringify({ '1': { class_type: 'UpscaleWithMagic', inputs: {}, _meta: { title: 'Magic' } } }));
	await page.getByRole('button', { name: 'Import pasted JSON' }).click();
	await expect(page.getByRole('alert', { name: 'Problems in this workflow' })).toContainText(
		'Node 1 "Magic" uses the node type "UpscaleWithMagic", which this server does not have'
	);
	await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
});
