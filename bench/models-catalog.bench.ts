/**
 * The catalog walked and rendered by the app, against the bare HTTP walk of the same catalog from
 * the same page in the same run (same page size, same origin rules, no rendering, no IndexedDB),
 * measured (after one warm-up walk) just before Models is opened, so both see warm connections.
 * The app is booted first (cold: fresh browser context, nothing saved), then Models is opened from
 * the navigation, as a person does. Targets: first model shown < 300 ms; full list / bare walk < 1.5.
 */
import { line, median, startBenchApp } from './models-app';

const RUNS = 5;
const PAGE_SIZE = 20;
const bench = await startBenchApp();
const { emulator, app, browser } = bench;

try {
	const firstShown: number[] = [];
	const fullShown: number[] = [];
	const workerWalk: number[] = [];
	const bare: number[] = [];
	const boot: number[] = [];
	let models = 0;
	for (let i = 0; i < RUNS; i++) {
		const context = await browser.newContext();
		const page = await context.newPage();
		// In the page: the click on Models, the first model link, and the walk's "Complete" (page clock).
		const marks: Record<string, number> = {};
		await page.exposeFunction('__benchMark', (name: string, at: number) => {
			marks[name] ??= at;
		});
		// A string, not a function: tsx would wrap named functions in a helper the page does not have.
		await page.addInitScript(`
			const seen = new Set();
			const mark = (n) => { if (!seen.has(n)) { seen.add(n); window.__benchMark(n, performance.now()); } };
			document.addEventListener('click', () => mark('click'), true);
			new MutationObserver(() => {
				if (!location.pathname.startsWith('/models')) return;
				if (document.querySelector('main section[aria-label^="Provider"] a')) mark('first');
				if (document.querySelector('[aria-label="Catalog status"]')?.textContent?.includes('Complete')) mark('full');
			}).observe(document, { subtree: true, childList: true, characterData: true });
		`);
		const tBoot = Date.now();
		await page.goto(`${app.url}/settings`);
		await page.getByRole('article', { name: /Profile Demo/ }).waitFor();
		boot.push(Date.now() - tBoot);
		const bareWalk = () =>
			page.evaluate(
				async ({ base, key, size }) => {
					const t = performance.now();
					let cursor: string | undefined;
					for (;;) {
						const q = new URLSearchParams({ limit: String(size) });
						if (cursor) q.set('cursor', cursor);
						const res = await fetch(`${base}/v2/models?${q}`, { headers: { 'X-API-Key': key }, cache: 'no-store' });
						const body = (await res.json()) as { has_more: boolean; next_cursor?: string };
						if (!body.has_more) break;
						cursor = body.next_cursor;
					}
					return performance.now() - t;
				},
				{ base: emulator.urls.router, key: emulator.apiKey, size: PAGE_SIZE }
			);
		await bareWalk(); // warms the connections the app's walk will use too
		bare.push(await bareWalk());
		await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Models' }).click();
		const status = page.getByRole('status', { name: 'Catalog status' });
		await status.getByText('Complete').waitFor({ timeout: 30_000 });
		models = await page.locator('main section[aria-label^="Provider"] a').count();
		const opened = await page.evaluate(() => performance.getEntriesByName('runboard:catalog-open').at(0)?.startTime ?? NaN);
		if (process.env['BENCH_DEBUG']) console.log({ toOpen: opened - marks['click']!, toFirst: marks['first']! - marks['click']! });
		firstShown.push(marks['first']! - marks['click']!);
		fullShown.push(marks['full']! - marks['click']!);
		const statusText = (await status.textContent()) ?? '';
		if (process.env['BENCH_DEBUG']) console.log(statusText.replace(/\s+/g, ' '));
		const done = /in ([\d.]+) s\)/.exec(statusText);
		workerWalk.push(Number(done?.[1]) * 1000);
		await context.close();
	}
	const b = median(bare);
	console.log(`catalog of ${models} models, page size ${PAGE_SIZE}, median of ${RUNS} cold contexts (nothing saved)`);
	line('baseline: bare HTTP walk from the page', b, '(1.00x)');
	line('app boot to Settings (for scale, not a target)', median(boot), `(${(median(boot) / b).toFixed(2)}x baseline)`);
	line('first model shown, from opening Models', median(firstShown), `(${(median(firstShown) / b).toFixed(2)}x baseline; target < 300 ms)`);
	line('full list shown, from opening Models', median(fullShown), `(${(median(fullShown) / b).toFixed(2)}x baseline; target < 1.5x)`);
	line("the worker's walk, first request to last page", median(workerWalk), `(${(median(workerWalk) / b).toFixed(2)}x baseline)`);
} finally {
	await bench.close();
}
