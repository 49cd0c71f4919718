/**
 * Background schema fetching for a catalog of 1,000 models (issue 20): after the catalog walk, the
 * worker fetches every model's schema document two at a time and summarises it for the tiles. The
 * walk must not be slowed by it: the same walk (the Refresh button, same page, same warm
 * connections) is timed while a prefetch of 1,000 documents is under way and again with nothing in
 * the background, in the same run (target: within 1.1x). The page's longest task while the
 * documents arrive is recorded too (a PerformanceObserver of `longtask` in the page).
 *
 * Each round is a cold context: Models opened, the first walk completes and the prefetch starts;
 * 300 ms later Refresh walks again, *while the prefetch waits* for it (its requests already on their
 * way overlap the start); the prefetch then resumes and is left to finish. The baseline arm does the
 * same with the emulator refusing every schema (500): the prefetch gives up after four requests, so
 * its second walk has nothing beside it. Arms alternate. Walk times are the worker's own (first
 * request to last page, as the status line says, 10 ms steps).
 */
import type { Page } from '@playwright/test';
import { line, median, startBenchApp } from './models-app';
import { watchdog } from './support/watchdog';
import { report } from './support/report';
import { benchContext, until } from './support/wait';

const CATALOG_SIZE = 1000;
const ROUNDS = 4;
const WAIT_MS = 180_000;

watchdog(20);
const bench = await startBenchApp();
const { emulator, app, browser } = bench;

interface Round {
	prefetch: boolean;
	coldWalk: number;
	/** The Refresh walk started 300 ms after the cold walk ended: beside the prefetch, or with none. */
	secondWalk: number;
	prefetchMs: number;
	longestTask: number;
	longTasks: number;
	summaries: number;
}

const LONGTASK_SCRIPT = `
	window.__longTasks = [];
	new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
		.observe({ type: 'longtask', buffered: true });
`;

function statusText(page: Page): Promise<string> {
	return page.evaluate(() => document.querySelector('[aria-label="Catalog status"]')?.textContent ?? '');
}

/** Waits (polling every 20 ms, no accessibility queries) until the page's text holds `words`. */
async function untilSaid(page: Page, words: string): Promise<void> {
	await until(page, `the page to say '${words}'`, `(document.body.textContent ?? '').includes(${JSON.stringify(words)})`, {
		polling: 20,
		timeout: WAIT_MS
	});
}

/** Presses Refresh (unless it is the first walk) and returns the worker's walk time, which the status line's "Up to date" carries. */
async function walk(page: Page, first: boolean): Promise<number> {
	if (!first) {
		// Notes the walk starting (the status leaves "Up to date"), however briefly, before pressing.
		await page.evaluate(() => {
			const w = window as unknown as { __walkStarted: boolean };
			w.__walkStarted = false;
			const status = document.querySelector('[aria-label="Catalog status"]')!;
			new MutationObserver((_, observer) => {
				if (!status.querySelector('[data-walk-ms]')) {
					w.__walkStarted = true;
					observer.disconnect();
				}
			}).observe(status, { subtree: true, childList: true, characterData: true });
		});
		await page.getByRole('button', { name: 'Refresh catalog' }).click();
		await until(page, 'the catalog walk to start after Refresh', () => (window as unknown as { __walkStarted: boolean }).__walkStarted);
	}
	await until(
		page,
		"the catalog status to say 'Up to date' with the walk's time",
		() => document.querySelector('[aria-label="Catalog status"] [data-walk-ms]'),
		{
			timeout: WAIT_MS
		}
	);
	const ms = Number(await page.getByRole('status', { name: 'Catalog status' }).locator('[data-walk-ms]').getAttribute('data-walk-ms'));
	if (!Number.isFinite(ms)) throw new Error(`the catalog status' walk time is not a number: ${await statusText(page)}`);
	return ms;
}

async function setSchemasRefused(refused: boolean): Promise<void> {
	const res = await fetch(`${emulator.urls.router}/__emulator/router/faults`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ schemaInternalError: refused })
	});
	if (!res.ok) throw new Error(`router faults: HTTP ${res.status}`);
}

/**
 * One cold context: Models opened, the first walk, then 300 ms later the same walk again (Refresh).
 * With `prefetch` false the emulator answers every schema with 500, so the prefetch gives up after
 * its first few requests and the second walk runs with nothing in the background.
 */
async function round(prefetch: boolean): Promise<Round> {
	await setSchemasRefused(!prefetch);
	const context = await benchContext(browser);
	const page = await context.newPage();
	await page.addInitScript(LONGTASK_SCRIPT);
	await page.goto(`${app.url}/settings`);
	await page.getByRole('article', { name: /Profile Demo/ }).waitFor();
	await until(page, 'the service worker to control the page', () => navigator.serviceWorker.controller !== null, {
		timeout: WAIT_MS
	});
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Models' }).click();
	const coldWalk = await walk(page, true);
	const t0 = Date.now();
	await page.evaluate(() => ((window as unknown as { __longTasks: number[] }).__longTasks.length = 0));
	await page.waitForTimeout(300);
	const secondWalk = await walk(page, false);
	let prefetchMs = 0;
	if (prefetch) {
		await untilSaid(page, 'reading model details');
		await until(
			page,
			"the prefetch to end (the page no longer says 'reading model details')",
			() => !(document.body.textContent ?? '').includes('reading model details'),
			{
				polling: 100,
				timeout: WAIT_MS
			}
		);
		prefetchMs = Date.now() - t0;
	}
	const tasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks.slice());
	const summaries = await page.locator('main section[aria-label^="Provider"] a:has(.sentence)').count();
	await context.close();
	return {
		prefetch,
		coldWalk,
		secondWalk,
		prefetchMs,
		longestTask: tasks.length ? Math.max(...tasks) : 0,
		longTasks: tasks.length,
		summaries
	};
}

try {
	const rebuilt = await fetch(`${emulator.urls.router}/__emulator/router/catalog/rebuild`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ size: CATALOG_SIZE })
	});
	if (!rebuilt.ok) throw new Error(`catalog rebuild: HTTP ${rebuilt.status}`);
	const rounds: Round[] = [];
	// Alternated, so a change in the machine's load falls on both arms alike.
	for (let i = 0; i < ROUNDS; i++) {
		rounds.push(await round(true));
		rounds.push(await round(false));
	}
	await setSchemasRefused(false);
	const withIt = rounds.filter((r) => r.prefetch);
	const without = rounds.filter((r) => !r.prefetch);
	const m = (list: Round[], f: (r: Round) => number) => median(list.map(f));
	const alone = m(without, (r) => r.secondWalk);
	const during = m(withIt, (r) => r.secondWalk);
	console.log(`catalog of ${CATALOG_SIZE} models, schemas fetched two at a time; median of ${ROUNDS} cold contexts per arm`);
	line('baseline: the second walk, no prefetch (schemas refused)', alone, '(1.00x)');
	line('the same walk beside the prefetch of 1,000 schemas', during, `(${(during / alone).toFixed(2)}x; target <= 1.1x)`);
	line(
		'the first (cold) walk with prefetch, for scale',
		m(withIt, (r) => r.coldWalk),
		''
	);
	line(
		'the first (cold) walk without, for scale',
		m(without, (r) => r.coldWalk),
		''
	);
	line(
		'prefetch: first walk done to every schema read',
		m(withIt, (r) => r.prefetchMs),
		'(for scale)'
	);
	line(
		"the page's longest task, walk end to prefetch end",
		m(withIt, (r) => r.longestTask),
		`(${m(withIt, (r) => r.longTasks)} long tasks, median)`
	);
	line(
		"the page's longest task without prefetch",
		m(without, (r) => r.longestTask),
		`(${m(without, (r) => r.longTasks)} long tasks, median)`
	);
	console.log(`tiles with a description after the prefetch: ${withIt.map((r) => r.summaries).join(', ')} (of ${CATALOG_SIZE})`);
	console.log(`walks, ms (with / without): ${withIt.map((r) => r.secondWalk).join(', ')} / ${without.map((r) => r.secondWalk).join(', ')}`);
	console.log(`verdict: ${during / alone <= 1.1 ? 'met' : 'MISSED'} (walk beside the prefetch / walk without <= 1.1)`);
	report({
		name: 'catalog walk beside the prefetch of 1,000 schemas (baseline: the walk alone)',
		figure: during,
		unit: 'ms',
		baseline: alone,
		target: '<= 1.1x baseline',
		met: during / alone <= 1.1
	});
	report({ name: "the page's longest task while the schemas arrive", figure: m(withIt, (r) => r.longestTask), unit: 'ms' });
} finally {
	await bench.close();
}
