/**
 * The sweep grid (#30): frame intervals while a 20 x 20 grid of finished cells scrolls both ways
 * (target: p95 within 1.2x of a plain page holding the same 400 images, measured in the same run),
 * and the page's longest task while a 400-cell sweep is submitted and its first cells run (target
 * < 50 ms).
 */
import type { Browser, Page } from '@playwright/test';
import { demoConfig, serveApp } from '../scripts/serve-app';
import { MODEL_RUN_VERSION, type ModelRun } from '../src/lib/core/protocol/model-run';
import { MODEL_BYTES_KEY, MODEL_RUN_KEY, SWEEP_KEY } from '../src/lib/core/protocol/storage-keys';
import { MODEL_AXIS, SWEEP_SCHEMA_VERSION, type SweepRecord } from '../src/lib/sweeps/protocol/sweep';
import { planCells } from '../src/lib/sweeps/rules/sweep-plan';
import { control, launchChromium, startEmulator } from './support/app-run';
import { seedAppStore } from './support/app-store';
import { median, percentile, ratio, verdict } from './support/stats';
import { check, report } from './support/report';

const SIDE = 20;
const ROUNDS = 3;
const SCROLL_MS = 3000;
/** SWEEP_BENCH_TRACE=dir writes a Chromium trace of the last round's scrolls and of the submit there, to see where frames go. */
const TRACE_DIR = process.env['SWEEP_BENCH_TRACE'];
const TRACE_CATEGORIES = [
	'devtools.timeline',
	'disabled-by-default-devtools.timeline',
	'blink',
	'v8.execute',
	'disabled-by-default-devtools.timeline.frame'
];

/** Runs `during`, traced into `name` under TRACE_DIR when that is set. */
async function traced<T>(browser: Browser, page: Page, name: string, trace: boolean, during: () => Promise<T>): Promise<T> {
	if (!TRACE_DIR || !trace) return during();
	await browser.startTracing(page, { path: `${TRACE_DIR}/${name}.json`, categories: TRACE_CATEGORIES });
	try {
		return await during();
	} finally {
		await browser.stopTracing();
	}
}

const MODELS = Array.from({ length: SIDE }, (_, i) => `bench/model-${i}`);

function sweepRecord(): SweepRecord {
	const axes: SweepRecord['axes'] = [
		{ fieldId: MODEL_AXIS, path: [], label: 'Model', seed: false, values: MODELS, pairedWithPrevious: false },
		{
			fieldId: 'seed',
			path: ['seed'],
			label: 'Seed',
			seed: true,
			values: Array.from({ length: SIDE }, (_, i) => i + 1),
			pairedWithPrevious: false
		}
	];
	const cells = planCells(axes).map((c) => ({
		...c,
		status: 'succeeded' as const,
		runId: `bench-cell-${c.index}`,
		promptId: `key-${c.index}`,
		attempts: 1
	}));
	return {
		schemaVersion: SWEEP_SCHEMA_VERSION,
		id: 'bench-grid',
		profileId: 'demo',
		workflowId: null,
		title: 'bench/model-0',
		base: {},
		seeds: {},
		axes,
		cells,
		status: 'finished',
		createdAt: Date.now() - 60_000,
		finishedAt: Date.now(),
		window: 4,
		model: { modelId: MODELS[0]!, bodies: Object.fromEntries(MODELS.map((m) => [m, { prompt: 'a lighthouse' }])) }
	};
}

function modelRun(index: number, at: number): ModelRun {
	return {
		schemaVersion: MODEL_RUN_VERSION,
		kind: 'model',
		id: `bench-cell-${index}`,
		profileId: 'demo',
		modelId: MODELS[index % SIDE]!,
		title: `cell ${index}`,
		mode: 'sync',
		body: { prompt: 'a lighthouse', seed: Math.floor(index / SIDE) + 1 },
		idempotencyKey: `key-${index}`,
		keyCreatedAt: at,
		status: 'succeeded',
		attempts: 1,
		replayed: false,
		createdAt: at,
		startedAt: at,
		finishedAt: at + 4000,
		seeds: { seed: Math.floor(index / SIDE) + 1 },
		sweep: { id: 'bench-grid', cell: index },
		result: {
			contentType: 'image/png',
			size: 0,
			bytesKey: `${MODEL_BYTES_KEY}bench-cell-${index}:body`,
			assets: [{ path: 'body', kind: 'image', mime: 'image/png', source: 'body', bytesKey: `${MODEL_BYTES_KEY}bench-cell-${index}:body` }]
		}
	};
}

// In-page code is passed as strings: tsx's name-keeping helper (__name) does not exist in the page.

/** 400 distinct 384 px PNGs drawn in the page, stored as each cell's result bytes; their base64 for the plain page. */
async function seedPictures(page: Page): Promise<string[]> {
	return page.evaluate(`(async () => {
		const out = [];
		const db = await new Promise((resolve) => { const open = indexedDB.open('runboard'); open.onsuccess = () => resolve(open.result); });
		for (let i = 0; i < ${SIDE * SIDE}; i++) {
			const canvas = new OffscreenCanvas(384, 384);
			const g = canvas.getContext('2d');
			const grad = g.createLinearGradient(0, 0, 384, 384);
			grad.addColorStop(0, 'hsl(' + (i * 37) % 360 + ', 70%, 50%)');
			grad.addColorStop(1, 'hsl(' + (i * 91) % 360 + ', 60%, 30%)');
			g.fillStyle = grad; g.fillRect(0, 0, 384, 384);
			for (let k = 0; k < 40; k++) { g.fillStyle = 'hsla(' + ((i + k) * 53) % 360 + ', 80%, 60%, 0.5)'; g.beginPath(); g.arc((k * 97 + i * 13) % 384, (k * 61 + i * 7) % 384, 10 + (k % 5) * 8, 0, 7); g.fill(); }
			g.fillStyle = '#fff'; g.font = 'bold 64px sans-serif'; g.fillText(String(i), 20, 80);
			const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
			await new Promise((resolve, reject) => {
				const tx = db.transaction('kv', 'readwrite');
				tx.objectStore('kv').put(bytes, ${JSON.stringify(MODEL_BYTES_KEY)} + 'bench-cell-' + i + ':body');
				tx.oncomplete = resolve; tx.onerror = () => reject(tx.error);
			});
			let binary = '';
			for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(at, at + 0x8000));
			out.push(btoa(binary));
		}
		db.close();
		return out;
	})()`) as Promise<string[]>;
}

/** A plain page: the same 400 images as blob URLs in a 20 x 20 table, in a box that scrolls as the grid's does. */
const PLAIN_PAGE = `<!doctype html><html><head><style>
	body { margin: 0; font: 14px sans-serif; }
	.scroller { overflow: auto; max-height: 75vh; width: 100%; border: 1px solid #ccc; }
	img { width: 180px; height: 180px; object-fit: cover; display: block; }
	td { vertical-align: top; }
</style></head><body><div class="scroller" id="scroller"><table id="t"></table></div>
<script>
	window.build = (pictures) => {
		const table = document.getElementById('t');
		for (let r = 0; r < ${SIDE}; r++) {
			const tr = table.insertRow();
			for (let c = 0; c < ${SIDE}; c++) {
				const bytes = Uint8Array.from(atob(pictures[r * ${SIDE} + c]), (ch) => ch.charCodeAt(0));
				const img = document.createElement('img');
				img.alt = 'Output';
				img.src = URL.createObjectURL(new Blob([bytes], { type: 'image/png' }));
				const figure = document.createElement('figure');
				figure.append(img, Object.assign(document.createElement('figcaption'), { textContent: 'Model ' + c + ', Seed ' + (r + 1) }));
				tr.insertCell().append(figure);
			}
		}
	};
</script></body></html>`;

async function openPlainPage(page: Page, pictures: string[]): Promise<void> {
	await page.goto('about:blank');
	await page.setContent(PLAIN_PAGE, { waitUntil: 'domcontentloaded' });
	await page.evaluate((p) => (window as unknown as { build: (p: string[]) => void }).build(p), pictures);
}

/** Frame intervals while `selector` scrolls 60 px down and 30 px across a frame, turning at the ends. */
async function scrollFrames(page: Page, selector: string): Promise<number[]> {
	return page.evaluate(`new Promise((resolve) => {
		const el = document.querySelector(${JSON.stringify(selector)});
		el.scrollTop = 0; el.scrollLeft = 0;
		let dy = 60, dx = 30;
		const frames = [];
		let last = performance.now();
		const end = last + ${SCROLL_MS};
		const step = (t) => {
			frames.push(t - last);
			last = t;
			if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1 && dy > 0) dy = -dy;
			if (el.scrollTop <= 0 && dy < 0) dy = -dy;
			if (el.scrollLeft + el.clientWidth >= el.scrollWidth - 1 && dx > 0) dx = -dx;
			if (el.scrollLeft <= 0 && dx < 0) dx = -dx;
			el.scrollTop += dy; el.scrollLeft += dx;
			if (t < end) requestAnimationFrame(step); else resolve(frames.slice(2));
		};
		requestAnimationFrame(step);
	})`) as Promise<number[]>;
}

/** Polls an expression in the page (evaluated, not `waitForFunction`: the app's CSP refuses eval) until it is true. */
async function until(page: Page, expression: string): Promise<void> {
	for (const started = Date.now(); Date.now() - started < 60_000; await page.waitForTimeout(100))
		if ((await page.evaluate(expression)) === true) return;
	throw new Error(`timed out waiting for ${expression}`);
}

/** Waits until the first screenful of images has decoded. */
async function firstImages(page: Page, selector: string, count: number): Promise<void> {
	await until(
		page,
		`[...document.querySelectorAll(${JSON.stringify(selector)})].filter((i) => i.complete && i.naturalWidth > 0).length >= ${count}`
	);
}

const emulator = await startEmulator();
const app = await serveApp({ root: 'build', config: demoConfig(emulator) });
const browser = await launchChromium();
try {
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	const page = await context.newPage();
	await page.goto(`${app.url}/`);
	// The history's empty state: the worker has opened (and made) its database.
	await page.getByRole('heading', { name: 'No runs yet' }).waitFor();

	// SWEEP_BENCH_SUBMIT_ONLY=1 measures the submit alone.
	if (process.env['SWEEP_BENCH_SUBMIT_ONLY'] !== '1') await scrollBench(page);
	// SWEEP_BENCH_SCROLL_ONLY=1 measures the scroll alone.
	if (process.env['SWEEP_BENCH_SCROLL_ONLY'] !== '1') await submitBench(page);
	await context.close();
} finally {
	await browser.close();
	await app.close();
	await emulator.close();
}

async function scrollBench(page: Page): Promise<void> {
	// ---- scrolling a 20 x 20 grid of finished cells, beside a plain page of the same images ----
	const pictures = await seedPictures(page);
	const at = Date.now() - 60_000;
	const sweep = sweepRecord();
	await seedAppStore(page, [
		[SWEEP_KEY + sweep.id, sweep],
		...sweep.cells.map((c): [string, unknown] => [MODEL_RUN_KEY + c.runId, modelRun(c.index, at + c.index)])
	]);
	const grid: number[] = [];
	const plain: number[] = [];
	let gridCells = 0;
	for (let round = 0; round < ROUNDS; round++) {
		await page.goto(`${app.url}/sweeps/${sweep.id}`);
		await page.getByRole('region', { name: 'Sweep grid' }).waitFor();
		// Every cell in the page (the grid builds its rows a few per task) and the first screenful decoded.
		await until(page, `document.querySelectorAll('[data-cell]').length >= ${SIDE * SIDE}`);
		await firstImages(page, '[aria-label="Sweep grid"] img[alt="Output"]', 12);
		gridCells = await page.locator('[data-cell]').count();
		const last = round === ROUNDS - 1;
		grid.push(percentile(await traced(browser, page, 'grid-scroll', last, () => scrollFrames(page, '[aria-label="Sweep grid"]')), 95));

		await openPlainPage(page, pictures);
		await firstImages(page, '#scroller img', 12);
		plain.push(percentile(await traced(browser, page, 'plain-scroll', last, () => scrollFrames(page, '#scroller')), 95));
	}
	check('the grid shows all 400 cells', gridCells === SIDE * SIDE, `${gridCells} cells`);
	const gridP95 = median(grid);
	const plainP95 = median(plain);
	console.log(`sweep grid of ${SIDE} x ${SIDE} finished cells, scrolled both ways for ${SCROLL_MS / 1000} s, median of ${ROUNDS} rounds:`);
	console.log(`  grid frame interval p95   ${gridP95.toFixed(1)} ms  (rounds ${grid.map((g) => g.toFixed(1)).join(', ')})`);
	console.log(`  plain page p95 (baseline) ${plainP95.toFixed(1)} ms  (rounds ${plain.map((g) => g.toFixed(1)).join(', ')})`);
	console.log(`  ratio ${ratio(gridP95, plainP95)} (target <= 1.2x: ${verdict(gridP95 <= plainP95 * 1.2)})`);
	report({
		name: `sweep grid ${SIDE}x${SIDE} scroll frame interval, p95 (baseline: a plain page of the same 400 images)`,
		figure: gridP95,
		unit: 'ms',
		baseline: plainP95,
		target: '<= 1.2x baseline',
		met: gridP95 <= plainP95 * 1.2
	});
}

async function submitBench(page: Page): Promise<void> {
	// ---- submitting a 400-cell sweep: the page's longest task ----
	await control(emulator, 'workflow/timing', { stepMs: 2 });
	await page.goto(`${app.url}/`);
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	await page.getByRole('button', { name: 'Open example Text to image' }).click();
	await page.getByRole('form', { name: 'Run form' }).waitFor();
	await page.getByText('Sweep: vary inputs').click();
	await page.getByRole('button', { name: 'Add an input to vary' }).click();
	const first = page.getByRole('group', { name: 'Input to vary 1 (columns)' });
	await first.getByRole('combobox', { name: 'Input' }).selectOption({ label: 'KSampler · seed' });
	await first.getByRole('textbox', { name: 'Values of input to vary 1' }).fill(`1..${SIDE}`);
	await page.getByRole('button', { name: 'Add an input to vary' }).click();
	const second = page.getByRole('group', { name: 'Input to vary 2 (rows)' });
	await second.getByRole('combobox', { name: 'Input' }).selectOption({ label: 'KSampler · steps' });
	await second.getByRole('textbox', { name: 'Values of input to vary 2' }).fill(`1..${SIDE}`);
	// 400 runs is over the default limit of one sweep: it asks first, and the measure starts at "Start anyway".
	await page.getByRole('button', { name: `Start sweep of ${SIDE * SIDE} runs` }).click();
	const start = page.getByRole('button', { name: 'Start anyway' });
	await start.waitFor();
	await page.evaluate(`(() => {
		window.__longTasks = []; window.__longAt = []; window.__clickedAt = performance.now();
		new PerformanceObserver((list) => { for (const e of list.getEntries()) { window.__longTasks.push(e.duration); window.__longAt.push(Math.round(e.startTime - window.__clickedAt)); } }).observe({ type: 'longtask' });
	})()`);
	const clicked = Date.now();
	const progress = page.getByRole('status', { name: 'Sweep progress' });
	await traced(browser, page, 'submit', true, async () => {
		await start.click();
		await page.waitForURL(/\/sweeps\//);
		// The first cells are sent and run while the grid fills in; 20 s or 40 cells done, whichever first.
		for (let waited = 0; waited < 20_000; waited += 250) {
			const words = (await progress.textContent().catch(() => '')) ?? '';
			if (Number(/(\d+) of \d+ done/.exec(words)?.[1] ?? 0) >= 40) break;
			await page.waitForTimeout(250);
		}
	});
	const watched = Date.now() - clicked;
	const longTasks = (await page.evaluate('window.__longTasks')) as number[];
	const done = (await progress.textContent()) ?? '';
	const longAt = (await page.evaluate('window.__longAt')) as number[];
	const longest = Math.max(0, ...longTasks);
	console.log(`submitting a ${SIDE * SIDE}-cell sweep, watched ${(watched / 1000).toFixed(1)} s (${done.trim()}):`);
	console.log(
		`  long tasks ${longTasks.length}, longest ${longest.toFixed(0)} ms (target < 50 ms: ${verdict(longest < 50)}); all: ${longTasks.map((t, i) => `${t.toFixed(0)} ms at +${longAt[i]} ms`).join(', ')}`
	);
	check('cells of the 400-cell sweep ran', /[1-9]\d* of 400 done/.test(done), done);
	report({
		name: `longest task while a ${SIDE * SIDE}-cell sweep is submitted`,
		figure: longest,
		unit: 'ms',
		target: '< 50 ms',
		met: longest < 50
	});
}
