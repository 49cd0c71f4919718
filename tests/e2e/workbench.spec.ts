/**
 * The workbench: a run's progress and results appear beside the form (over it on a phone), never on
 * another page; results are shown by kind (text as text, real video and audio players); runs compare.
 */
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { test, expect, openExample, workflowControl, hasHorizontalScroll } from './fixtures';
import { routerControl } from './models-helpers';
import { holdNode, release, untilHeld } from './holds';

// Whole journeys with a run or two each: generous under a loaded machine.
test.describe.configure({ timeout: 90_000 });

async function openModel(page: Page, openApp: (path?: string) => Promise<void>, id: string) {
	await openApp(`/models/${id}`);
	const form = page.getByRole('form', { name: `Input of ${id}` });
	await expect(form).toBeVisible({ timeout: 15_000 });
	return form;
}

/** The result pane is to the right of the form, side by side. */
async function besideTheForm(page: Page, form: ReturnType<Page['getByRole']>): Promise<void> {
	const formBox = (await form.boundingBox())!;
	const pane = (await page.getByRole('region', { name: 'Run and results' }).boundingBox())!;
	expect(pane.x).toBeGreaterThanOrEqual(formBox.x + formBox.width - 1);
	expect(pane.y).toBeLessThan(formBox.y + formBox.height);
}

test('a workflow run shows its progress, preview and image beside the form without leaving the page', async ({
	page,
	openApp,
	emulator
}) => {
	// The sampler is held after its third step: progress and a preview are on screen, and stay there.
	await holdNode(emulator, { classType: 'KSampler', step: 3 });
	await openApp('/');
	await openExample(page, 'Text to image');
	const url = page.url();
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	const pane = page.getByRole('region', { name: 'Run and results' });
	await untilHeld(emulator);
	await expect(pane.getByText('Running KSampler: step 3 of 20')).toBeVisible();
	await expect(pane.getByRole('img', { name: /Latest preview from KSampler/ })).toBeVisible();
	await release(emulator);
	const output = pane.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ });
	await expect(output).toBeVisible({ timeout: 20_000 });
	expect(page.url()).toBe(url);
	await besideTheForm(page, page.getByRole('form', { name: 'Run form' }));

	// Full screen, actual size, and back.
	await pane.getByRole('button', { name: /View Output ComfyUI_\d+_\.png full screen/ }).click();
	const viewer = page.getByRole('dialog', { name: 'Image viewer' });
	await viewer.getByRole('button', { name: 'Actual size (100 %)' }).click();
	await expect(viewer.getByRole('button', { name: 'Fit to screen' })).toBeVisible();
	await viewer.getByRole('button', { name: 'Close' }).click();

	// The run page stays for sharing and deep links.
	await pane.getByRole('link', { name: 'Open run Text to image' }).click();
	await expect(page.getByRole('heading', { name: 'Text to image' })).toBeVisible();
	await expect(page.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ })).toBeVisible();
});

test('"Run 2 times" fills a grid of two tiles, and two runs compare side by side with the differing seed highlighted', async ({
	page,
	openApp,
	emulator
}) => {
	await workflowControl(emulator, 'timing', { stepMs: 50 });
	await openApp('/');
	await openExample(page, 'Text to image');
	await page.getByLabel('Run times').fill('2');
	await page.getByRole('button', { name: 'Run 2 times' }).click();
	const tiles = page.getByRole('region', { name: 'Runs started' }).getByRole('article');
	await expect(tiles).toHaveCount(2);
	await expect(tiles.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ })).toHaveCount(2, { timeout: 30_000 });

	const strip = page.getByRole('region', { name: 'Earlier runs here' });
	await expect(strip.getByRole('checkbox')).toHaveCount(2, { timeout: 15_000 });
	await strip.getByRole('checkbox').nth(0).check();
	await strip.getByRole('checkbox').nth(1).check();
	await strip.getByRole('button', { name: 'Compare 2 runs' }).click();
	const compare = page.getByRole('region', { name: 'Compare runs' });
	await expect(compare.getByRole('article', { name: /^Compared run/ })).toHaveCount(2);
	await expect(compare).toContainText('1 input differs');
	await expect(compare.locator('[data-differs]').first()).toContainText('seed');
	await expect(compare.getByRole('slider', { name: /Before and after/ })).toBeVisible();
});

test('an image edit workflow slides its input picture against its output, where Run was pressed', async ({ page, openApp, emulator }) => {
	await workflowControl(emulator, 'timing', { stepMs: 20 });
	await openApp('/');
	await openExample(page, 'Image edit');
	const node = page.getByRole('region', { name: 'Node Load Image' });
	const picture = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 230, g: 120, b: 40 } } })
		.png()
		.toBuffer();
	await node.locator('input[type=file]').first().setInputFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: picture });
	await expect(node.getByLabel(/^image: (image|file name) on the service$/)).toHaveValue(/_sunset\.png$/, { timeout: 15_000 });
	const url = page.url();
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	const pane = page.getByRole('region', { name: 'Run and results' });
	await expect(pane.getByRole('slider', { name: /^Before and after: show 50 % of Input image .*_sunset\.png$/ })).toBeVisible({
		timeout: 30_000
	});
	const before = pane.getByRole('img', { name: /^Input image .*_sunset\.png$/ });
	await expect.poll(() => before.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 15_000 }).toBe(96);
	await expect(pane.getByRole('img', { name: 'Output', exact: true })).toBeVisible();
	expect(page.url()).toBe(url);
});

test('a model run, synchronous then queued, shows beside the form without navigation', async ({ page, openApp, emulator }) => {
	await routerControl(emulator, 'settings', { providerMs: 300 });
	const form = await openModel(page, openApp, 'lumen/flux-1');
	const url = page.url();
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('A lighthouse at dusk');
	await form.getByRole('button', { name: 'Run now' }).click();
	const runs = page.getByRole('region', { name: 'Runs of this model' });
	await expect(runs.getByRole('article').first().getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	await expect(runs.getByRole('img', { name: /image 1 of Direct run/ })).toBeVisible();
	await besideTheForm(page, form);

	await form.getByRole('button', { name: 'Add to queue' }).click();
	const queued = runs.getByRole('article').first();
	await expect(queued).toContainText('Through the queue');
	await expect(queued.getByRole('status')).toHaveText('Succeeded', { timeout: 30_000 });
	await expect(queued.getByRole('img', { name: /image 1 of Queued run/ })).toBeVisible();
	// Both requests of this visit stay in view, as a grid; the ids and keys wait in a details disclosure.
	await expect(runs.getByRole('article')).toHaveCount(2);
	await expect(queued.getByText('Details')).toBeVisible();
	await expect(queued.getByText(/^attempt 1/)).toBeHidden();
	expect(page.url()).toBe(url);
	expect(await hasHorizontalScroll(page)).toBe(false);
});

test('an LLM answer shows as text, not as a JSON tree', async ({ page, openApp, emulator }) => {
	await routerControl(emulator, 'settings', { providerMs: 100 });
	const form = await openModel(page, openApp, 'quill/quill-mini');
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('list three colours');
	await form.getByRole('button', { name: 'Run now' }).click();
	const text = page.getByRole('region', { name: /Text output \(output\) of Direct run/ });
	await expect(text).toHaveText('Here is a considered reply to "list three colours".', { timeout: 20_000 });
	const result = page.getByRole('region', { name: /Result of Direct run/ });
	// The raw parts fold away under one closed "Raw result": no JSON tree shows.
	await expect(result.locator('details')).toHaveCount(1);
	await expect(result.locator('details')).toContainText('Raw result');
	await expect(result.locator('details')).not.toHaveAttribute('open');
	await expect(result).toContainText(/output tokens\s*\d+/);
});

/** How far apart the darkest and brightest pixels of an image are (0 for a blank box, black or grey). */
function spreadOfImage(page: Page, src: string): Promise<number> {
	return page.evaluate(async (src) => {
		const image = new Image();
		image.src = src;
		await image.decode();
		const canvas = document.createElement('canvas');
		canvas.width = image.naturalWidth;
		canvas.height = image.naturalHeight;
		const context = canvas.getContext('2d')!;
		context.drawImage(image, 0, 0);
		const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
		let low = 255;
		let high = 0;
		for (let i = 0; i < data.length; i += 4) {
			const luma = (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
			low = Math.min(low, luma);
			high = Math.max(high, luma);
		}
		return high - low;
	}, src);
}

test('a video model result plays in a real video player', async ({ page, openApp, emulator }) => {
	await routerControl(emulator, 'settings', { providerMs: 100 });
	const form = await openModel(page, openApp, 'tidal/wave-1-t2v');
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('rain on a window');
	await form.getByRole('button', { name: 'Run now' }).click();
	const video = page.locator('video[aria-label^="video 1 of Direct run"]');
	await expect(video).toBeVisible({ timeout: 20_000 });
	await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
	expect(await video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(2);
	expect(await video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(160);
	// Before play, the tile and the history strip show a frame of the video itself, not a blank box.
	await expect(video).toHaveAttribute('poster', /^blob:/, { timeout: 15_000 });
	expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
	expect(await spreadOfImage(page, (await video.getAttribute('poster'))!)).toBeGreaterThan(20);
	const strip = page.getByRole('region', { name: 'Earlier runs here' });
	const thumb = strip
		.getByRole('button', { name: /Show the run of/ })
		.first()
		.locator('img');
	await expect(thumb).toHaveAttribute('src', /^blob:/, { timeout: 15_000 });
	expect(await spreadOfImage(page, (await thumb.getAttribute('src'))!)).toBeGreaterThan(20);
	await video.evaluate((v: HTMLVideoElement) => ((v.muted = true), v.play()));
	await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0);
	expect(await video.evaluate((v: HTMLVideoElement) => v.controls && v.loop)).toBe(true);

	// The Runs timeline pictures the run by a frame of its video too.
	await openApp('/');
	const row = page.getByRole('link', { name: /Run tidal\/wave-1-t2v: rain on a window, succeeded/ }).locator('img');
	await expect(row).toHaveAttribute('src', /^blob:/, { timeout: 15_000 });
	expect(await spreadOfImage(page, (await row.getAttribute('src'))!)).toBeGreaterThan(20);
});

test('a speech model result plays in an audio player', async ({ page, openApp, emulator }) => {
	await routerControl(emulator, 'settings', { providerMs: 100 });
	const form = await openModel(page, openApp, 'sonora/speech-1');
	await form.getByRole('textbox', { name: 'Text', exact: true }).fill('Your run has finished, and it looks lovely.');
	await form.getByRole('button', { name: 'Run now' }).click();
	const audio = page.locator('audio[aria-label^="audio 1 of Direct run"]');
	await expect(audio).toBeAttached({ timeout: 20_000 });
	await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
	expect(await audio.evaluate((a: HTMLAudioElement) => a.duration)).toBeGreaterThan(0.5);
	expect(await audio.evaluate((a: HTMLAudioElement) => a.controls)).toBe(true);
});

test('on a phone the live result slides up over the form, and back @phone', async ({ page, openApp, emulator }) => {
	test.skip(test.info().project.name !== 'phone', 'phone layout only');
	await routerControl(emulator, 'settings', { providerMs: 300 });
	const form = await openModel(page, openApp, 'lumen/flux-1');
	const pane = page.getByRole('region', { name: 'Run and results' });
	await expect(pane).toBeHidden();
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('A lighthouse at dusk');
	await form.getByRole('button', { name: 'Run now' }).click();
	await expect(pane).toBeVisible();
	await expect(pane.getByRole('img', { name: /image 1 of Direct run/ })).toBeVisible({ timeout: 20_000 });
	const box = (await pane.boundingBox())!;
	expect(box.y).toBeLessThan(50);
	expect(box.width).toBeGreaterThan(380);
	expect(await hasHorizontalScroll(page)).toBe(false);
	await pane.getByRole('button', { name: 'Back to the form' }).click();
	await expect(pane).toBeHidden();
	await expect(form.getByRole('button', { name: 'Run now' })).toBeInViewport();
});

test('a workflow run on a phone shows over the form @phone', async ({ page, openApp, emulator }) => {
	test.skip(test.info().project.name !== 'phone', 'phone layout only');
	await workflowControl(emulator, 'timing', { stepMs: 100 });
	await openApp('/');
	await openExample(page, 'Text to image');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	const pane = page.getByRole('region', { name: 'Run and results' });
	await expect(pane.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ })).toBeVisible({ timeout: 20_000 });
	expect((await pane.boundingBox())!.y).toBeLessThan(50);
	expect(await hasHorizontalScroll(page)).toBe(false);
});

test('the old run-page addresses still open', async ({ page, openApp, emulator }) => {
	await routerControl(emulator, 'settings', { providerMs: 100 });
	await workflowControl(emulator, 'timing', { stepMs: 50 });
	await openApp('/');
	await openExample(page, 'Text to image');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	const href = await page.getByRole('link', { name: 'Open run Text to image' }).getAttribute('href');
	expect(href).toMatch(/^\/runs\/[\w-]+$/);
	const form = await openModel(page, openApp, 'quill/quill-mini');
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('hello');
	await form.getByRole('button', { name: 'Run now' }).click();
	await expect(page.getByRole('region', { name: 'Runs of this model' }).getByRole('status')).toHaveText('Succeeded', { timeout: 20_000 });
	await openApp(href!);
	await expect(page.getByRole('heading', { name: 'Text to image' })).toBeVisible({ timeout: 15_000 });
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	const entry = page.getByRole('link', { name: /Run quill\/quill-mini: hello, succeeded/ });
	await expect(entry).toBeVisible({ timeout: 15_000 });
	// Model runs open on the one run page; their old address leads there.
	const modelHref = (await entry.getAttribute('href'))!;
	expect(modelHref).toMatch(/^\/runs\/[\w-]+$/);
	await openApp(modelHref.replace('/runs/', '/models/runs/'));
	await expect(page).toHaveURL(new RegExp(`${modelHref}$`), { timeout: 15_000 });
	await expect(page.getByRole('heading', { name: 'quill/quill-mini' })).toBeVisible({ timeout: 15_000 });
});
