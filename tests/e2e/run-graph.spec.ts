import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { RecordingSocket } from '../../emulator/workflow/test-support';
import { test, expect, openExample, runExample, workflowControl } from './fixtures';
import type { JsonObject } from '../../src/lib/core/protocol/json';
import {
	edit,
	subgraphDefinition,
	toSchemaV1,
	txt2imgNodes,
	uiNode,
	workflow04
} from '../../src/lib/workflows/rules/converter/ui-builder.fixture';
import { holdNode, oneStepWhileWatched, release, untilHeld } from './holds';

/** The box of a node in the graph, by its title. */
const box = (page: Page, title: string): Locator =>
	page.getByRole('region', { name: 'Run graph' }).getByRole('button', { name: new RegExp(`^${title} \\(`) });

async function openGraph(page: Page): Promise<Locator> {
	await page.getByRole('tab', { name: 'Graph' }).click();
	const graph = page.getByRole('region', { name: 'Run graph' });
	await expect(graph.locator('.node').first()).toBeVisible({ timeout: 20_000 });
	return graph;
}

interface Rect {
	id: string;
	x: number;
	y: number;
	width: number;
	height: number;
}

/** Every box's place on screen. */
function rects(graph: Locator): Promise<Rect[]> {
	return graph.locator('.node').evaluateAll((els) =>
		els.map((el) => {
			const r = el.getBoundingClientRect();
			return { id: (el as HTMLElement).dataset['nodeId'] ?? '', x: r.x, y: r.y, width: r.width, height: r.height };
		})
	);
}

test('the graph shows each node moving from waiting to done, the preview on the sampler, and outputs @phone', async ({
	page,
	openApp,
	emulator
}, info) => {
	test.setTimeout(90_000);
	// The sampler is held as it starts, so the graph is seen mid-run however long it takes to draw.
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/');
	// The graph tab chosen before: the run page opens on it.
	await page.evaluate(() => localStorage.setItem('runboard:run-view', 'graph'));
	await runExample(page, 'Text to image');
	const graph = page.getByRole('region', { name: 'Run graph' });
	await expect(graph.locator('.node')).toHaveCount(7, { timeout: 20_000 });
	// The save waits behind the sampler, which runs with its steps and preview; then all done.
	await expect(box(page, 'Save Image')).toHaveAttribute('data-state', 'waiting');
	await expect(box(page, 'KSampler')).toHaveAttribute('data-state', 'running', { timeout: 20_000 });
	await expect(graph.locator('path.live')).toHaveCount(4);
	// Readable as it opens, at either size: the smallest words of a box are drawn at 12 CSS px or more, and the running node is on screen.
	const smallestLabel = await graph.evaluate((el) => {
		const world = el.querySelector('.world')!;
		const scale = new DOMMatrix(getComputedStyle(world).transform).a;
		const sizes = [...el.querySelectorAll('.node *')]
			.filter((n) => [...n.childNodes].some((c) => c.nodeType === Node.TEXT_NODE && c.textContent?.trim()))
			.map((n) => parseFloat(getComputedStyle(n).fontSize) * scale);
		return Math.min(...sizes);
	});
	expect(smallestLabel).toBeGreaterThanOrEqual(12);
	const plane = (await graph.locator('.plane').boundingBox())!;
	const sampler = (await box(page, 'KSampler').boundingBox())!;
	expect(sampler.x).toBeGreaterThanOrEqual(plane.x - 1);
	expect(sampler.y).toBeGreaterThanOrEqual(plane.y - 1);
	expect(sampler.x + sampler.width).toBeLessThanOrEqual(plane.x + plane.width + 1);
	expect(sampler.y + sampler.height).toBeLessThanOrEqual(plane.y + plane.height + 1);
	await oneStepWhileWatched(emulator);
	await expect(box(page, 'KSampler').getByRole('img', { name: 'Latest preview from KSampler' })).toBeVisible({ timeout: 20_000 });
	await expect(box(page, 'KSampler')).toContainText(/\d+ of 20 steps/);
	await release(emulator);
	await expect(graph.locator('.node[data-state="done"]')).toHaveCount(7, { timeout: 30_000 });
	await expect(box(page, 'Save Image').getByRole('img', { name: /Output 1 of/ })).toBeVisible({ timeout: 20_000 });
	await expect(page.getByRole('list', { name: 'Node states' }).getByRole('listitem')).toHaveCount(7);
	await expect(page.getByRole('list', { name: 'Node states' })).toContainText('KSampler: Done');

	// The view followed the run to its last node: Fit brings the sampler back. A tap (or click) opens the node's inputs as sent.
	await page.getByRole('button', { name: 'Fit' }).click();
	if (info.project.name === 'phone') await box(page, 'KSampler').tap();
	else await box(page, 'KSampler').click();
	const details = page.getByRole('complementary', { name: 'Node details' });
	await expect(details).toContainText('steps');
	await details.getByRole('button', { name: 'Close' }).click();

	if (info.project.name === 'phone') {
		// Upright on a phone the graph fills the screen.
		const area = await graph.boundingBox();
		expect(area?.height).toBeGreaterThan(700);
		const scale = () => graph.locator('.world').evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a);
		const before = await scale();
		const cdp = await page.context().newCDPSession(page);
		const host = (await graph.locator('.plane').boundingBox())!;
		await cdp.send('Input.synthesizePinchGesture', {
			x: host.x + host.width / 2,
			y: host.y + host.height / 2,
			scaleFactor: 2,
			relativeSpeed: 400,
			gestureSourceType: 'touch'
		});
		await expect.poll(scale, { timeout: 15_000 }).toBeGreaterThan(before * 1.3);
	}

	// The tab is remembered on this device, and the saved run is drawn again after a reload.
	await page.reload();
	await expect(page.getByRole('tab', { name: 'Graph' })).toHaveAttribute('aria-selected', 'true');
	await expect(graph.locator('.node[data-state="done"]')).toHaveCount(7, { timeout: 20_000 });
});

test('a second run of the same workflow marks the nodes the server reused as cached', async ({ page, openApp, emulator }) => {
	test.setTimeout(90_000);
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/');
	await runExample(page, 'Text to image');
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	await page.getByRole('link', { name: 'Open workflow' }).click();
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Text to image' }).first().click();
	const graph = await openGraph(page);
	await expect(graph.locator('.node[data-state="cached"]').first()).toBeVisible({ timeout: 20_000 });
	await expect(box(page, 'Load Checkpoint')).toHaveAttribute('data-state', 'cached');
	await expect(page.getByRole('list', { name: 'Node states' })).toContainText('Load Checkpoint: Cached');
});

test("a failed run's node is red with the error's message", async ({ page, openApp, control }) => {
	test.setTimeout(90_000);
	await control.scenario('models-unavailable');
	await openApp('/');
	await runExample(page, 'Text to image');
	const graph = await openGraph(page);
	const failed = graph.locator('.node[data-state="failed"]');
	await expect(failed).toHaveCount(1, { timeout: 20_000 });
	await expect(failed).toContainText('ModelDownloadError');
	await expect(failed.locator('.message')).toHaveCSS('background-color', /rgb\((185, 28, 28|248, 113, 113)\)/);
	await expect(box(page, 'KSampler')).toHaveAttribute('data-state', 'not-run');
});

test('an API-format workflow is laid out left to right with no overlapping nodes', async ({ page, openApp }) => {
	test.setTimeout(90_000);
	await openApp('/');
	await runExample(page, 'Text to image');
	const graph = await openGraph(page);
	const boxes = await rects(graph);
	expect(boxes).toHaveLength(7);
	for (const a of boxes)
		for (const b of boxes)
			if (a.id < b.id)
				expect(
					a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y,
					`${a.id} and ${b.id} overlap`
				).toBe(true);
	const at = new Map(boxes.map((b) => [b.id, b]));
	const links = await graph.locator('path[data-link]').evaluateAll((els) => els.map((el) => el.getAttribute('data-link')!.split('->')));
	expect(links.length).toBeGreaterThan(5);
	for (const [from, to] of links) expect(at.get(from!)!.x, `${from} left of ${to}`).toBeLessThan(at.get(to!)!.x);
	// Links coloured by type from the server's node definitions: the checkpoint's MODEL and CLIP outputs.
	await expect(graph.locator('path[data-link="4->3"]')).toHaveAttribute('stroke', '#b39ddb', { timeout: 15_000 });
	await expect(graph.locator('path[data-link="4->6"]')).toHaveAttribute('stroke', '#ffd500');
});

test("a UI-format workflow keeps its author's layout and groups", async ({ page, openApp }) => {
	test.setTimeout(60_000);
	await openApp('/workflows');
	const text = await readFile('tests/fixtures/workflow-files/ui-workflow.json', 'utf8');
	const data = await page.evaluateHandle((t) => {
		const transfer = new DataTransfer();
		transfer.items.add(new File([t], 'ui-workflow.json', { type: 'application/json' }));
		return transfer;
	}, text);
	await page.getByRole('heading', { name: 'Workflows', level: 1 }).dispatchEvent('drop', { dataTransfer: data });
	await expect(page.getByRole('form', { name: 'Run form' })).toBeVisible();
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page
		.getByRole('link', { name: /^Open run/ })
		.first()
		.click();
	const graph = await openGraph(page);
	// The graph opens readable, zoomed in on one part: Fit shows the whole layout to compare with the file.
	await page.getByRole('button', { name: 'Fit' }).click();
	await expect(graph.locator('.group')).toHaveText('Prompts');
	const boxes = new Map((await rects(graph)).map((b) => [b.id, b]));
	// The file: Load Checkpoint (4) at x 26, the prompts (6, 7) at 415/413, KSampler (3) at 863, SaveImage (9) at 1451.
	const k = boxes.get('4')!.width / 315;
	expect(boxes.get('3')!.x - boxes.get('4')!.x).toBeCloseTo((863 - 26) * k, 0);
	expect(boxes.get('9')!.x - boxes.get('3')!.x).toBeCloseTo((1451 - 863) * k, 0);
	expect(boxes.get('7')!.y - boxes.get('6')!.y).toBeCloseTo((389 - 186) * k, 0);
	// The group's box encloses its two prompts, as in the file.
	const group = (await graph.locator('.group').boundingBox())!;
	for (const id of ['6', '7']) {
		const b = boxes.get(id)!;
		expect(b.x).toBeGreaterThanOrEqual(group.x);
		expect(b.x + b.width).toBeLessThanOrEqual(group.x + group.width + 1);
	}
	await expect(graph.locator('path[data-link="4->3"]')).toHaveAttribute('stroke', '#b39ddb');
});

test.describe('opening an example', () => {
	test('keeps the first view light: the graph code loads only with its tab', async ({ page, openApp }) => {
		test.setTimeout(90_000);
		const scripts: string[] = [];
		page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
		await openApp('/');
		await openExample(page, 'Text to image');
		const before = scripts.length;
		await page.getByRole('button', { name: 'Run', exact: true }).click();
		await page.getByRole('link', { name: 'Open run Text to image' }).click();
		await page.getByRole('tab', { name: 'Details' }).click();
		await expect(page.getByRole('region', { name: 'Run graph' })).toHaveCount(0);
		const withoutGraph = scripts.length;
		await openGraph(page);
		expect(scripts.length).toBeGreaterThan(withoutGraph);
		expect(before).toBeGreaterThan(0);
	});
});

test.describe('with the service worker', () => {
	// This journey needs the service worker, which the suite blocks by default (decision 0058).
	test.use({ serviceWorkers: 'allow' });

	test('a finished run is drawn offline from its saved record, the graph code from the precache', async ({
		page,
		context,
		openApp,
		emulator
	}) => {
		test.setTimeout(90_000);
		await workflowControl(emulator, 'timing', { stepMs: 5 });
		await openApp('/');
		await expect.poll(() => page.evaluate(() => navigator.serviceWorker.ready.then(() => true))).toBe(true);
		await runExample(page, 'Text to image');
		// The workflow page's run tile says Done too: read the URL only once the run page is open.
		await expect(page).toHaveURL(/\/runs\//);
		await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
		const runUrl = page.url();
		try {
			await context.setOffline(true);
			await page.goto(runUrl);
			await expect(page.getByRole('heading', { name: 'Text to image' })).toBeVisible({ timeout: 15_000 });
			const graph = await openGraph(page);
			await expect(graph.locator('.node[data-state="done"]')).toHaveCount(7, { timeout: 20_000 });
		} finally {
			await context.setOffline(false);
		}
	});
});

test('a node opens its inputs in "run again" and its outputs in the shared image viewer', async ({ page, openApp, emulator }) => {
	test.setTimeout(90_000);
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/');
	await runExample(page, 'Text to image');
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	await openGraph(page);
	const details = page.getByRole('complementary', { name: 'Node details' });

	// An output thumbnail opens the viewer the workbench uses, not an image of its own.
	await expect(box(page, 'Save Image').getByRole('img', { name: /Output 1 of/ })).toBeVisible({ timeout: 20_000 });
	await box(page, 'Save Image').click();
	await details.getByRole('button', { name: /^View Output 1 of/ }).click();
	const viewer = page.getByRole('dialog', { name: 'Image viewer' });
	await expect(viewer.getByRole('img', { name: /Output 1 of .*, full size/ })).toBeVisible();
	await viewer.getByRole('button', { name: 'Close' }).click();
	await details.getByRole('button', { name: 'Close' }).click();

	// The sampler's inputs: the form, filled with this run's inputs, at the sampler's fields. The graph
	// opened readable (zoomed in on one part): Fit shows the whole of it, the sampler among the rest.
	await page.getByRole('button', { name: 'Fit' }).click();
	await box(page, 'KSampler').click();
	await details.getByRole('button', { name: 'Change these inputs in Run again' }).click();
	await expect(page).toHaveURL(/\/workflows\/[^?]+\?inputs=[^&]+&node=\d+$/, { timeout: 15_000 });
	const sampler = page.getByRole('form', { name: 'Run form' }).getByRole('region', { name: 'Node KSampler' });
	await expect(sampler).toHaveAttribute('aria-current', 'true', { timeout: 20_000 });
	await expect(sampler).toBeInViewport();
	await expect(sampler).toBeFocused();
	await expect(sampler.getByRole('spinbutton', { name: 'steps' })).toHaveValue('20');
});

test("an interrupted run's graph marks the node the server stopped at and leaves the rest not run", async ({ page, openApp, emulator }) => {
	test.setTimeout(90_000);
	// The decoder is held until the cancel lands inside it (a stop releases the hold). As in ComfyUI,
	// the stop is read as the next node starts, so the server names Save Image, which never ran; the
	// test socket says when the decoder started.
	await workflowControl(emulator, 'timing', { stepMs: 5, holdNode: { classType: 'VAEDecode' } });
	const socket = await RecordingSocket.open(emulator);
	try {
		await openApp('/');
		await runExample(page, 'Text to image');
		await openGraph(page);
		await socket.until(() => socket.json('executing').some((m) => m.data['node'] === '8'), 20_000);
		await page.getByRole('button', { name: 'Cancel run' }).click();
		await expect(box(page, 'Save Image')).toHaveAttribute('data-state', 'interrupted', { timeout: 30_000 });
		await expect(box(page, 'Save Image')).toHaveAccessibleName(/Save Image \(SaveImage\): Interrupted/);
		await expect(box(page, 'VAE Decode')).toHaveAttribute('data-state', 'done');
		await expect(box(page, 'KSampler')).toHaveAttribute('data-state', 'done');
		await expect(page.getByRole('list', { name: 'Node states' })).toContainText('Save Image: Interrupted');
	} finally {
		socket.close();
	}
});

test('a v2 run shows what its count of finished nodes pins down: the running node’s inputs done, what follows it waiting', async ({
	page,
	openApp,
	emulator
}) => {
	test.setTimeout(90_000);
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/settings');
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: /^Cloud/ }).check();
	await form.getByLabel('Workflow service URL').fill(emulator.urls.workflow);
	await form.getByRole('textbox', { name: 'API key' }).fill(emulator.apiKey);
	await form.getByRole('button', { name: 'Save profile' }).click();
	await expect(page.getByRole('article', { name: 'Profile Cloud' })).toBeVisible();
	const use = page.getByRole('button', { name: 'Use Cloud' });
	if (await use.isVisible()) await use.click();
	await expect(page.getByRole('link', { name: /Connection: Cloud, Live/ })).toBeVisible();

	await page.evaluate(() => localStorage.setItem('runboard:run-view', 'graph'));
	await runExample(page, 'Text to image');
	const graph = page.getByRole('region', { name: 'Run graph' });
	await expect(box(page, 'KSampler')).toHaveAttribute('data-state', 'running', { timeout: 30_000 });
	// v2 names no finished node, only how many: with 4 of 7 done and the sampler running, its inputs must
	// be done (they run before it) and the decode and save must wait (they need it); nothing is guessed.
	await expect(box(page, 'Load Checkpoint')).toHaveAttribute('data-state', 'done');
	await expect(box(page, 'Save Image')).toHaveAttribute('data-state', 'waiting');
	await expect(page.getByRole('list', { name: 'Node states' })).toContainText('Save Image: Waiting');
	await release(emulator);
	await expect(graph.locator('.node[data-state="done"]')).toHaveCount(7, { timeout: 30_000 });
});

/** A UI-format workflow whose sampling sits in a subgraph ("Sampling", instance 10) holding another ("Sampler core", instance 3), each placed by its author. */
function subgraphWorkflow(): JsonObject {
	const at = (node: JsonObject, x: number, y: number): JsonObject => ({ ...node, pos: [x, y] });
	const core = subgraphDefinition({
		id: 'b0000000-0000-4000-8000-000000000002',
		name: 'Sampler core',
		inputs: [
			['model', 'MODEL', [201]],
			['positive', 'CONDITIONING', [202]],
			['negative', 'CONDITIONING', [203]],
			['latent_image', 'LATENT', [204]]
		],
		outputs: [['LATENT', 'LATENT', [205]]],
		nodes: [
			at(
				uiNode(1, 'KSampler', {
					inputs: [
						['model', 'MODEL', 201],
						['positive', 'CONDITIONING', 202],
						['negative', 'CONDITIONING', 203],
						['latent_image', 'LATENT', 204]
					],
					outputs: [['LATENT', 'LATENT', [205]]],
					values: [7, 'fixed', 10, 6, 'euler', 'normal', 1]
				}),
				200,
				100
			)
		],
		links: [
			[201, -10, 0, 1, 0, 'MODEL'],
			[202, -10, 1, 1, 1, 'CONDITIONING'],
			[203, -10, 2, 1, 2, 'CONDITIONING'],
			[204, -10, 3, 1, 3, 'LATENT'],
			[205, 1, 0, -20, 0, 'LATENT']
		]
	});
	const sampling = subgraphDefinition({
		id: 'a0000000-0000-4000-8000-000000000001',
		name: 'Sampling',
		inputs: [
			['model', 'MODEL', [101]],
			['clip', 'CLIP', [102, 103]],
			['latent', 'LATENT', [107]]
		],
		outputs: [['LATENT', 'LATENT', [108]]],
		nodes: [
			at(
				uiNode(1, 'CLIPTextEncode', {
					title: 'Positive',
					inputs: [['clip', 'CLIP', 102]],
					outputs: [['CONDITIONING', 'CONDITIONING', [105]]],
					values: ['a cat in a hat']
				}),
				0,
				0
			),
			at(
				uiNode(2, 'CLIPTextEncode', {
					title: 'Negative',
					inputs: [['clip', 'CLIP', 103]],
					outputs: [['CONDITIONING', 'CONDITIONING', [106]]],
					values: ['blurry']
				}),
				0,
				300
			),
			at(
				uiNode(3, core['id'] as string, {
					title: 'Core',
					inputs: [
						['model', 'MODEL', 101],
						['positive', 'CONDITIONING', 105],
						['negative', 'CONDITIONING', 106],
						['latent_image', 'LATENT', 107]
					],
					outputs: [['LATENT', 'LATENT', [108]]]
				}),
				500,
				150
			)
		],
		links: [
			[101, -10, 0, 3, 0, 'MODEL'],
			[102, -10, 1, 1, 0, 'CLIP'],
			[103, -10, 1, 2, 0, 'CLIP'],
			[105, 1, 0, 3, 1, 'CONDITIONING'],
			[106, 2, 0, 3, 2, 'CONDITIONING'],
			[107, -10, 2, 3, 3, 'LATENT'],
			[108, 3, 0, -20, 0, 'LATENT']
		]
	});
	const { nodes, links } = edit(
		txt2imgNodes(),
		[
			uiNode(10, sampling['id'] as string, {
				title: 'My sampling',
				inputs: [
					['model', 'MODEL', 1],
					['clip', 'CLIP', 3],
					['latent', 'LATENT', 2]
				],
				outputs: [['LATENT', 'LATENT', [7]]]
			})
		],
		[
			[1, 4, 0, 10, 0, 'MODEL'],
			[3, 4, 1, 10, 1, 'CLIP'],
			[2, 5, 0, 10, 2, 'LATENT'],
			[7, 10, 0, 8, 0, 'LATENT']
		],
		[3, 6, 7]
	);
	const places: Record<number, [number, number]> = { 4: [0, 0], 5: [0, 300], 10: [450, 100], 8: [850, 100], 9: [1150, 100] };
	return toSchemaV1(
		workflow04(
			nodes.map((n) => at(n, ...places[n['id'] as number]!)),
			links.filter((l) => ![4, 5, 6].includes(l[0])),
			{ definitions: { subgraphs: [sampling, core] } }
		)
	);
}

test('a subgraph opens into a drawing of its inside, nested ones too, with live states and a way back @phone', async ({
	page,
	openApp,
	emulator
}, info) => {
	test.setTimeout(120_000);
	// The sampler inside is held as it starts, so the states are watched change inside the subgraph.
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/workflows');
	const data = await page.evaluateHandle((t) => {
		const transfer = new DataTransfer();
		transfer.items.add(new File([t], 'subgraph-workflow.json', { type: 'application/json' }));
		return transfer;
	}, JSON.stringify(subgraphWorkflow()));
	await page.getByRole('heading', { name: 'Workflows', level: 1 }).dispatchEvent('drop', { dataTransfer: data });
	await expect(page.getByRole('form', { name: 'Run form' })).toBeVisible({ timeout: 20_000 });
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page
		.getByRole('link', { name: /^Open run/ })
		.first()
		.click();
	const graph = await openGraph(page);
	const node = (id: string) => graph.locator(`.node[data-node-id="${id}"]`);
	const states = page.getByRole('list', { name: 'Node states' }).getByRole('listitem');
	await expect(graph.locator('.node')).toHaveCount(5);
	await expect(box(page, 'My sampling')).toHaveAccessibleName(/Subgraph “Sampling”.*opens its 3 nodes/);

	// Enter on the subgraph's box draws its inside in the author's layout: the two prompts left of the inner subgraph.
	await box(page, 'My sampling').focus();
	await page.keyboard.press('Enter');
	const levels = page.getByRole('navigation', { name: 'Graph levels' });
	await expect(levels.locator('[aria-current="location"]')).toHaveText('My sampling');
	await expect(graph.locator('.node')).toHaveCount(3);
	await expect(node('10:1')).toBeFocused();
	const [positive, negative, inner] = await Promise.all(['10:1', '10:2', '10:3'].map((id) => node(id).boundingBox()));
	expect(positive!.x).toBeLessThan(inner!.x);
	expect(negative!.y).toBeGreaterThan(positive!.y);
	await expect(states).toHaveCount(3);
	// Its live states follow the path ids: the prompts finish, the inner subgraph runs the sampler, then is done.
	await expect(node('10:1')).toHaveAttribute('data-state', /done|cached/, { timeout: 30_000 });
	await release(emulator);
	await expect(node('10:3')).toHaveAttribute('data-state', 'done', { timeout: 40_000 });
	await expect(page.getByRole('list', { name: 'Node states' })).toContainText('Core: Done');

	// The nested subgraph opens the same way, with a tap; the breadcrumb leads back, level by level.
	if (info.project.name === 'phone') await node('10:3').tap();
	else await node('10:3').click();
	await expect(levels.locator('[aria-current="location"]')).toHaveText('Core');
	await expect(graph.locator('.node')).toHaveCount(1);
	await expect(box(page, 'KSampler')).toHaveAttribute('data-state', 'done');
	await expect(states).toHaveText(['KSampler: Done']);
	// The breadcrumb passes the accessibility check, and a finger can hit each of its controls.
	const axe = await new AxeBuilder({ page })
		.include('nav[aria-label="Graph levels"]')
		.withTags(['wcag2a', 'wcag2aa', 'wcag21aa'])
		.analyze();
	expect(axe.violations.map((v) => v.id)).toEqual([]);
	if (info.project.name === 'phone')
		for (const control of await levels.getByRole('button').all())
			expect((await control.boundingBox())!.height).toBeGreaterThanOrEqual(43.5);
	await levels.getByRole('button', { name: 'Back' }).click();
	await expect(graph.locator('.node')).toHaveCount(3);
	await expect(node('10:3')).toBeFocused();
	await page.keyboard.press('Escape');
	await expect(levels).toHaveCount(0);
	await expect(graph.locator('.node')).toHaveCount(5);
	await expect(box(page, 'My sampling')).toBeFocused();
	await expect(graph.locator('.node[data-state="done"]')).toHaveCount(5, { timeout: 20_000 });
});

test('the graph follows a run as it goes: each node changes state while the graph is open', async ({ page, openApp, emulator }) => {
	// The sampler is held half-way, then the decoder: the graph is open while the run stands at each, and
	// must show where it stands after the burst of fast steps between them, not a step of that burst.
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await holdNode(emulator, { classType: 'KSampler', step: 10 });
	await openApp('/');
	await page.evaluate(() => localStorage.setItem('runboard:run-view', 'graph'));
	await runExample(page, 'Text to image');
	const graph = page.getByRole('region', { name: 'Run graph' });
	const states = page.getByRole('list', { name: 'Node states' });
	await expect(graph.locator('.node')).toHaveCount(7, { timeout: 20_000 });
	await untilHeld(emulator);
	await expect(box(page, 'KSampler')).toHaveAttribute('data-state', 'running');
	await expect(box(page, 'VAE Decode')).toHaveAttribute('data-state', 'waiting');
	await expect(states).toContainText('KSampler: Running');

	await holdNode(emulator, { classType: 'VAEDecode' });
	await release(emulator, { keepHolding: true });
	await untilHeld(emulator);
	await expect(box(page, 'VAE Decode')).toHaveAttribute('data-state', 'running');
	await expect(box(page, 'KSampler')).toHaveAttribute('data-state', 'done');
	await expect(box(page, 'Save Image')).toHaveAttribute('data-state', 'waiting');
	await expect(states).toContainText('VAE Decode: Running');
	// The Details view holds the same run.
	await page.getByRole('tab', { name: 'Details' }).click();
	await expect(page.getByRole('region', { name: 'Live progress' })).toContainText('VAE Decode');
	await page.getByRole('tab', { name: 'Graph' }).click();

	await release(emulator);
	await expect(graph.locator('.node[data-state="done"]')).toHaveCount(7, { timeout: 20_000 });
	await expect(states).toContainText('VAE Decode: Done');
	await expect(states).toContainText('Save Image: Done');
});
