/**
 * Sweeps (#30): a 3 x 4 seed x CFG sweep of the demo's text-to-image workflow, on the emulator's v1
 * service. Runs are caught with the emulator's hold, never slowed down; the emulator's request
 * counters say how many jobs were submitted.
 */
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { E2E_TIMINGS, expect, hasHorizontalScroll, openExample, test, workflowControl, type Control } from './fixtures';
import { axeViolations } from './axe-check';
import { holdNode, release, untilHeld } from './holds';
import { addProfile } from './v2-helpers';
import { addLocalProfile } from './local-helpers';
import { askToFreeSweep, CELLS, freeSweep, reopenFromGridPicture, sweepOnStoragePage, sweepProgress as progress } from './sweep-helpers';
import textToAnimation from '../../src/lib/workflows/rules/examples/text-to-animation.json' with { type: 'json' };

const SENT = `${CELLS}[data-status="queued"], ${CELLS}[data-status="running"]`;
const IN_FLIGHT = `${CELLS}[data-status="sending"], ${SENT}`;

/** Plans seeds by CFG values on the open workflow's form and starts it; resolves on the grid page. */
async function startSeedByCfgSweep(page: Page, seeds = '1..3', cfgs = '4, 6, 8, 10', count = 12): Promise<void> {
	await page.getByText('Sweep: vary inputs').click();
	await page.getByRole('button', { name: 'Add an input to vary' }).click();
	const first = page.getByRole('group', { name: 'Input to vary 1 (columns)' });
	await first.getByRole('combobox', { name: 'Input' }).selectOption({ label: 'KSampler · seed' });
	await first.getByRole('textbox', { name: 'Values of input to vary 1' }).fill(seeds);
	await page.getByRole('button', { name: 'Add an input to vary' }).click();
	const second = page.getByRole('group', { name: 'Input to vary 2 (rows)' });
	await second.getByRole('combobox', { name: 'Input' }).selectOption({ label: 'KSampler · cfg' });
	await second.getByRole('textbox', { name: 'Values of input to vary 2' }).fill(cfgs);
	// The count before anything is sent.
	await expect(page.getByRole('status', { name: 'Sweep size' })).toHaveText(new RegExp(`^${count} runs \\(`));
	await page.getByRole('button', { name: `Start sweep of ${count} runs` }).click();
	await expect(page).toHaveURL(/\/sweeps\//);
	await expect(page.locator(CELLS)).toHaveCount(count);
}

async function submits(control: Control): Promise<number> {
	const { requests } = await control.counters();
	return (requests['POST /api/prompt'] ?? 0) + (requests['POST /prompt'] ?? 0);
}

/** Output bytes read from the workflow service (ComfyUI's `/view`, under `/api` or not). */
async function outputReads(control: Control): Promise<number> {
	const { requests } = await control.counters();
	return Object.entries(requests).reduce((n, [route, count]) => n + (/^GET (\/api)?\/view$/.test(route) ? count : 0), 0);
}

test.beforeEach(async ({ emulator }) => {
	await workflowControl(emulator, 'timing', { stepMs: 2 });
});

test('a 3 x 4 seed x CFG sweep fills its grid live and shows in the timeline as one entry @phone', async ({
	page,
	openApp,
	emulator,
	control
}) => {
	// One journey through the grid, its picture, the storage page and the Runs list: 11-29 s on 2 loaded cores.
	test.setTimeout(90_000);
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/');
	await openExample(page, 'Text to image');
	await startSeedByCfgSweep(page);

	// Live: the first cell runs (held at its sampler) while the grid waits on the rest.
	await untilHeld(emulator);
	await expect(page.locator(`${CELLS}[data-status="running"]`)).toHaveCount(1);
	await expect(progress(page)).toContainText('Running: 0 of 12 done');
	await release(emulator);

	await expect(progress(page)).toHaveText('Finished: 12 of 12 done', { timeout: 30_000 });
	await expect(page.getByRole('region', { name: 'Sweep grid' }).getByRole('img', { name: 'Output' })).toHaveCount(12);
	await expect(page.getByRole('cell', { name: 'seed 2, cfg 8' }).getByRole('link')).toHaveAttribute('href', /\/runs\//);
	expect(await submits(control)).toBe(12);
	const violations = await axeViolations(page, ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
	expect(
		violations.map(
			(v) =>
				`${v.id}: ${v.nodes
					.map((n) => n.target.join(' '))
					.slice(0, 3)
					.join(' | ')}`
		)
	).toEqual([]);

	// On a phone the grid scrolls inside itself, both ways; the page does not scroll sideways.
	const grid = page.getByRole('region', { name: 'Sweep grid' });
	if (test.info().project.name === 'phone') {
		expect(await grid.evaluate((el) => el.scrollWidth > el.clientWidth && el.scrollHeight > el.clientHeight)).toBe(true);
		expect(await hasHorizontalScroll(page)).toBe(false);
	}

	// Two cells compare with the wipe slider.
	await page.getByRole('checkbox', { name: 'Compare seed 1, cfg 4' }).check();
	await page.getByRole('checkbox', { name: 'Compare seed 3, cfg 10' }).check();
	await expect(page.getByRole('region', { name: 'Compare two cells' }).getByRole('slider')).toBeVisible();

	// The grid saves as one PNG (drawn in the worker); dropped back on Runboard, it reopens the sweep.
	await reopenFromGridPicture(page, 'Finished: 12 of 12 done');

	// The storage page lists the sweep with a thumbnail of every cell; freeing it leaves the grid whole, drawn from them.
	const held = await sweepOnStoragePage(page, 'Text to image', '12 thumbnails');
	await expect(held).toContainText('12 cached outputs');
	if (test.info().project.name === 'phone') expect(await hasHorizontalScroll(page), 'the list of sweeps fits a phone').toBe(false);
	expect(Number(await held.locator('[data-thumbnail-bytes]').getAttribute('data-thumbnail-bytes'))).toBeGreaterThan(0);
	const confirm = await askToFreeSweep(page, held, 'Text to image');
	await expect(confirm).toContainText(/This removes 12 cached outputs \(\d/);
	await confirm.getByRole('button', { name: /^Free \d/ }).click();
	await expect(page.getByRole('status').filter({ hasText: /^Freed .* 12 cached outputs\.$/ })).toBeVisible();
	await expect(held).toContainText('0 cached outputs (0 B)');
	await expect(held).toContainText('12 thumbnails');
	const readsBefore = await outputReads(control);
	expect(readsBefore, 'each output was read once, as its run ended').toBeGreaterThanOrEqual(12);
	await held.getByRole('link', { name: 'Text to image' }).click();
	const pictures = page.getByRole('region', { name: 'Sweep grid' }).getByRole('img', { name: 'Output' });
	await expect(pictures).toHaveCount(12);
	await expect.poll(() => pictures.evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length)).toBe(12);
	expect(await outputReads(control), 'the grid shows the thumbnails, fetching no output again').toBe(readsBefore);

	// The Runs list shows the sweep as one entry, which opens the grid.
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	const entry = page.getByRole('link', { name: /Sweep: Text to image \(12 runs\)/ });
	await expect(entry).toHaveCount(1);
	await entry.click();
	await expect(page).toHaveURL(/\/sweeps\//);
	await expect(progress(page)).toHaveText('Finished: 12 of 12 done');

	// Deleting the sweep's entry deletes every run of it, not the one that stands for it.
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	await page.getByRole('list', { name: 'Runs' }).getByRole('listitem').filter({ has: entry }).getByRole('checkbox').check();
	await page.getByRole('button', { name: 'Delete 1 from history' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Deleted 12 runs from history.' })).toBeVisible();
	await expect(entry).toHaveCount(0);
	await expect(page.getByRole('link', { name: /^Run Text to image/ })).toHaveCount(0);
});

test('a finished sweep is deleted as a whole from its page, with undo, and its grid goes with its runs @phone', async ({
	page,
	openApp
}) => {
	// The undo window runs on the page's timers: the clock ends it (time flows as usual).
	await page.clock.install();
	await openApp('/');
	await openExample(page, 'Text to image');
	await startSeedByCfgSweep(page, '1..2', '4', 2);
	await expect(progress(page)).toHaveText('Finished: 2 of 2 done', { timeout: 30_000 });
	const sweepUrl = page.url();
	const entry = page.getByRole('link', { name: /Sweep: Text to image \(2 runs\)/ });

	const deleteSweep = async () => {
		await page.getByRole('button', { name: 'Delete sweep' }).click();
		const confirm = page.getByRole('dialog', { name: 'Delete the sweep “Text to image”?' });
		await expect(confirm).toContainText('Its 2 runs go from this device');
		await confirm.getByRole('button', { name: 'Delete 2 runs' }).click();
		await expect(page).toHaveURL(/\/$/);
		await expect(page.getByRole('status').filter({ hasText: 'Deleted the sweep “Text to image”: 2 runs from history.' })).toBeVisible();
		await expect(entry).toHaveCount(0);
	};
	await deleteSweep();
	await page.getByRole('button', { name: 'Undo delete of 2 runs' }).click();
	await expect(entry).toHaveCount(1);

	await entry.click();
	await expect(progress(page)).toHaveText('Finished: 2 of 2 done');
	await deleteSweep();
	await page.clock.runFor(E2E_TIMINGS.undoMs + 100);
	// The worker deletes the runs as the window ends, then the sweep they leave empty.
	await expect(async () => {
		await page.goto(sweepUrl);
		await expect(page.getByRole('heading', { name: 'Sweep not found' })).toBeVisible({ timeout: 2_000 });
	}).toPass({ timeout: 20_000 });
});

test('a reload halfway resumes the sweep without submitting any cell twice @phone', async ({ page, openApp, emulator, control }) => {
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/');
	await openExample(page, 'Text to image');
	await startSeedByCfgSweep(page);
	// Half the cells end, one by one, each held at its sampler until let go.
	for (let done = 1; done <= 6; done++) {
		await untilHeld(emulator);
		await release(emulator, { keepHolding: true });
		await expect(progress(page)).toContainText(`${done} of 12 done`);
	}
	await untilHeld(emulator);
	// Four cells on the server, every send answered (a cell still `sending` may not have reached it yet).
	await expect(page.locator(SENT)).toHaveCount(4);
	const before = await submits(control);
	expect(before).toBe(10);

	await page.reload();
	await expect(page.locator(CELLS)).toHaveCount(12);
	await expect(progress(page)).toContainText('6 of 12 done, 4 sent, 2 waiting');
	expect(await submits(control), 'the cells sent before the reload are followed, not sent again').toBe(before);

	await release(emulator);
	await expect(progress(page)).toHaveText('Finished: 12 of 12 done', { timeout: 30_000 });
	expect(await submits(control)).toBe(12);
});

test('cancel stops the rest of a sweep @phone', async ({ page, openApp, emulator, control }) => {
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/');
	await openExample(page, 'Text to image');
	await startSeedByCfgSweep(page);
	await untilHeld(emulator);
	await expect(page.locator(IN_FLIGHT)).toHaveCount(4);

	await page.getByRole('button', { name: 'Cancel the rest' }).click();
	await expect(progress(page)).toContainText('Cancelled');
	await expect(page.locator(`${CELLS}[data-status="skipped"]`)).toHaveCount(8);
	// The cells on the server are stopped too; none is left running or waiting.
	await expect(page.locator(IN_FLIGHT)).toHaveCount(0, { timeout: 15_000 });
	await release(emulator);
	expect(await submits(control)).toBe(4);
	await expect(page.getByRole('button', { name: 'Cancel the rest' })).toHaveCount(0);
});

test('on v2 a full queue refuses and the sweep waits it out, one job per cell', async ({ page, openApp, emulator, control }) => {
	await holdNode(emulator, { classType: 'KSampler' });
	await control.faults({ v2QueueLimit: 1 });
	await openApp('/');
	await addProfile(page, emulator, 'Cloud');
	await openExample(page, 'Text to image');
	await startSeedByCfgSweep(page, '1..2', '4, 8', 4);
	// One job runs (held), one waits; the others are refused with 429 queue_full and sent again after Retry-After.
	await untilHeld(emulator);
	await expect.poll(async () => (await control.counters()).requests['POST /api/v2/jobs'] ?? 0, { timeout: 15_000 }).toBeGreaterThan(4);
	await release(emulator);
	await expect(progress(page)).toHaveText('Finished: 4 of 4 done', { timeout: 30_000 });
	const state = (await (await fetch(`${emulator.urls.workflow}/__emulator/v2/state`)).json()) as { jobs: string[] };
	expect(state.jobs, 'each cell is one job, whatever the refusals').toHaveLength(4);
});

test.describe('the end of a sweep', () => {
	// Notifications need the service worker, which the suite blocks by default (decision 0058).
	test.use({ serviceWorkers: 'allow' });

	test('is told once, not once per cell, when the page is hidden', async ({ page, context, openApp, emulator }) => {
		await context.grantPermissions(['notifications']);
		await holdNode(emulator, { classType: 'KSampler' });
		await openApp('/settings');
		await page.getByRole('checkbox', { name: /Notify me when a run finishes/ }).check();
		await openExample(page, 'Text to image');
		await startSeedByCfgSweep(page, '1..2', '4, 8', 4);
		await untilHeld(emulator);
		// Hidden, as a backgrounded tab or a locked phone.
		await page.evaluate(() => {
			Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
			Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
			document.dispatchEvent(new Event('visibilitychange'));
		});
		await release(emulator);
		const titles = () => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => n.title));
		await expect.poll(titles, { timeout: 20_000 }).toEqual(['The sweep of Text to image finished']);
	});
});

test('a sweep of a workflow with two output nodes shows the one picked for the grid, with a count of the rest @phone', async ({
	page,
	openApp
}) => {
	await openApp('/');
	await openExample(page, 'Image edit');
	const load = page.getByRole('region', { name: 'Node Load Image' });
	const cat = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 30, g: 90, b: 200 } } })
		.png()
		.toBuffer();
	await load.locator('input[type=file]').first().setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer: cat });
	await expect(load.getByLabel(/^image: (image|file name) on the service$/)).toHaveValue(/_cat\.png$/);
	await page.getByText('Sweep: vary inputs').click();
	await page.getByRole('button', { name: 'Add an input to vary' }).click();
	const blur = page.getByRole('group', { name: 'Input to vary 1 (columns)' });
	await blur.getByRole('combobox', { name: 'Input' }).selectOption({ label: 'Image Blur · blur radius' });
	await blur.getByRole('textbox', { name: 'Values of input to vary 1' }).fill('1, 2');
	await page.getByRole('button', { name: 'Start sweep of 2 runs' }).click();
	await expect(page).toHaveURL(/\/sweeps\//);
	await expect(progress(page)).toHaveText('Finished: 2 of 2 done', { timeout: 30_000 });

	// Each run has two outputs (the saved edit, the scaled preview): the first is shown, the other counted.
	const grid = page.getByRole('region', { name: 'Sweep grid' });
	const first = grid.locator(`${CELLS}[data-cell="0"]`);
	await expect(first.getByRole('img', { name: 'Output' })).toBeVisible();
	await expect(first).toContainText('+1 more');
	const shown = page.getByRole('combobox', { name: 'Output shown' });
	await expect(shown.getByRole('option')).toHaveText(['The first of each run', 'Save Image #6', 'Preview (scaled) #7']);
	const savedSrc = await first.getByRole('img', { name: 'Output' }).getAttribute('src');

	// The scaled preview instead, in every cell.
	await shown.selectOption({ label: 'Preview (scaled) #7' });
	await expect(first.getByRole('img', { name: 'Output' })).not.toHaveAttribute('src', savedSrc ?? '');
	await expect(grid.getByRole('img', { name: 'Output' })).toHaveCount(2);
	await expect(first).toContainText('+1 more');

	// The choice is saved with the sweep: a reload shows the same output.
	await page.reload();
	await expect(shown).toHaveValue('7');
	await expect(grid.getByRole('img', { name: 'Output' })).toHaveCount(2);
});

/**
 * Imports the demo's animation workflow saving a real video (SaveWEBM: the emulator's VP9 WebM)
 * instead of an animated WebP, from the Workflows page, and waits for its page.
 */
async function importTextToVideo(page: Page): Promise<void> {
	const prompt = structuredClone(textToAnimation) as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
	prompt['4']!.inputs['batch_size'] = 2;
	prompt['7'] = { class_type: 'SaveWEBM', inputs: { images: ['6', 0], filename_prefix: 'video/sweep', codec: 'vp9', fps: 6, crf: 32 } };
	const buffer = Buffer.from(JSON.stringify(prompt));
	await page.getByLabel('Workflow file to import').setInputFiles({ name: 'Text to video.json', mimeType: 'application/json', buffer });
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Text to video');
}

test('a video sweep keeps a poster of every cell: the grid shows them once the videos are freed, fetching none, and plays one on demand @phone', async ({
	page,
	openApp,
	control
}) => {
	test.setTimeout(90_000);
	await openApp('/workflows');
	await importTextToVideo(page);
	await startSeedByCfgSweep(page, '1..2', '4, 6', 4);
	await expect(progress(page)).toHaveText('Finished: 4 of 4 done', { timeout: 30_000 });

	// The storage page counts a poster of every cell (made in the worker as each cell ends).
	const held = await sweepOnStoragePage(page, 'Text to video', '4 posters');
	await expect(held).toContainText('0 thumbnails');
	await expect(held).toContainText('4 cached outputs');
	expect(Number(await held.locator('[data-poster-bytes]').getAttribute('data-poster-bytes'))).toBeGreaterThan(0);

	// Freeing the videos leaves the posters: the grid shows every cell from them, asking the server for nothing.
	const confirm = await askToFreeSweep(page, held, 'Text to video');
	await expect(confirm.getByRole('checkbox', { name: /Also remove its 4 posters/ })).not.toBeChecked();
	await confirm.getByRole('button', { name: /^Free \d/ }).click();
	await expect(held).toContainText('0 cached outputs (0 B)');
	await expect(held).toContainText('4 posters');
	const readsBefore = await outputReads(control);
	await held.getByRole('link', { name: 'Text to video' }).click();
	const grid = page.getByRole('region', { name: 'Sweep grid' });
	const posters = grid.getByRole('img', { name: 'Video poster' });
	await expect(posters).toHaveCount(4);
	// Real frames of the video, at most 256 px a side (the emulator's clip is 160 x 90).
	await expect
		.poll(() =>
			posters.evaluateAll((imgs) =>
				imgs.map((img) => `${(img as HTMLImageElement).naturalWidth}x${(img as HTMLImageElement).naturalHeight}`)
			)
		)
		.toEqual(['160x90', '160x90', '160x90', '160x90']);
	await expect(grid.getByRole('button', { name: /^Play the video: / })).toHaveCount(4);
	await expect(grid.locator('video')).toHaveCount(0);
	expect(await outputReads(control), 'the grid shows the posters, fetching no video').toBe(readsBefore);

	// A tap on a play mark fetches that one video and plays it in its cell.
	const cell = page.getByRole('cell', { name: 'seed 2, cfg 6' });
	await cell.getByRole('button', { name: /^Play the video: / }).click();
	await expect(cell.locator('video')).toHaveCount(1);
	await expect.poll(() => cell.locator('video').evaluate((v) => (v as HTMLVideoElement).readyState)).toBeGreaterThanOrEqual(2);
	expect(await outputReads(control), 'only the video asked for').toBe(readsBefore + 1);
	await expect(posters).toHaveCount(3);
});

test("a sweep of the demo's animation (an animated WebP, listed under images as ComfyUI lists it) shows pictures, and thumbnails of their first frames once freed @phone", async ({
	page,
	openApp,
	control
}) => {
	test.setTimeout(90_000);
	await openApp('/');
	await openExample(page, 'Text to animation');
	await startSeedByCfgSweep(page, '1..2', '4', 2);
	await expect(progress(page)).toHaveText('Finished: 2 of 2 done', { timeout: 30_000 });
	const grid = page.getByRole('region', { name: 'Sweep grid' });
	// A picture to a browser, not a <video> that cannot play it.
	const outputs = grid.getByRole('img', { name: 'Output' });
	await expect(outputs).toHaveCount(2);
	await expect.poll(() => outputs.evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length)).toBe(2);
	await expect(grid.locator('video')).toHaveCount(0);

	const held = await sweepOnStoragePage(page, 'Text to animation', '2 thumbnails');
	await freeSweep(page, held, 'Text to animation');
	const readsBefore = await outputReads(control);
	await held.getByRole('link', { name: 'Text to animation' }).click();
	// The demo's 256 px frames, kept at their size.
	await expect
		.poll(() =>
			outputs.evaluateAll((imgs) =>
				imgs.map((img) => `${(img as HTMLImageElement).naturalWidth}x${(img as HTMLImageElement).naturalHeight}`)
			)
		)
		.toEqual(['256x256', '256x256']);
	expect(await outputReads(control), 'the grid shows the thumbnails, fetching no animation').toBe(readsBefore);
});

test('on a local ComfyUI, which lists a saved video under images, a video sweep keeps posters too', async ({
	page,
	openApp,
	emulator,
	control
}) => {
	test.setTimeout(90_000);
	await control.scenario('comfyui-local');
	await openApp('/settings');
	await addLocalProfile(page, emulator);
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	await importTextToVideo(page);
	await startSeedByCfgSweep(page, '1..2', '4', 2);
	await expect(progress(page)).toHaveText('Finished: 2 of 2 done', { timeout: 30_000 });
	// A video, shown as one (not a picture that cannot load), and a poster kept of each.
	await expect(page.getByRole('region', { name: 'Sweep grid' }).locator('video')).toHaveCount(2);
	const held = await sweepOnStoragePage(page, 'Text to video', '2 posters');
	await expect(held).toContainText('0 thumbnails');
});

test('a video this browser cannot read gets no poster: its cell says so in words, never a broken picture, and nothing throws', async ({
	page,
	context,
	openApp
}) => {
	test.setTimeout(90_000);
	// The service's videos arrive as bytes that are no video at all. (An error escaping the app fails the test: the fixtures watch.)
	await context.route(/\/view\?.*filename=[^&]*\.webm/, (route) =>
		route.fulfill({ status: 200, contentType: 'video/webm', body: Buffer.from('these bytes are not a video') })
	);
	await openApp('/workflows');
	await importTextToVideo(page);
	await startSeedByCfgSweep(page, '1..2', '4', 2);
	await expect(progress(page)).toHaveText('Finished: 2 of 2 done', { timeout: 30_000 });
	const grid = page.getByRole('region', { name: 'Sweep grid' });
	// While the bytes are cached, the cell tries them as a video and says it cannot play them.
	await expect(grid.getByText('This video cannot be played in this browser.')).toHaveCount(2);

	// Freed, each cell says in words why it has no poster (the note is kept as the cell ends, so a reload finds it).
	const held = await sweepOnStoragePage(page, 'Text to video', '2 cached outputs');
	await freeSweep(page, held, 'Text to video');
	await expect(held).not.toContainText('poster');
	await held.getByRole('link', { name: 'Text to video' }).click();
	await expect(page).toHaveURL(/\/sweeps\//);
	await expect(async () => {
		await page.reload();
		await expect(grid.getByText(/^No poster for this video: /)).toHaveCount(2, { timeout: 2_000 });
	}).toPass({ timeout: 20_000 });
	await expect(grid.getByText('No poster for this video: This output is not a video this app can read.').first()).toBeVisible();
	await expect(grid.getByRole('img')).toHaveCount(0);

	// Asked to play, it says so too.
	const cell = page.getByRole('cell', { name: 'seed 1, cfg 4' });
	await cell.getByRole('button', { name: /^Play the video: / }).click();
	await expect(cell.getByText('This video cannot be played in this browser.')).toBeVisible();
});
