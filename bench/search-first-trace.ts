/**
 * Takes the first search after a reload apart (decision 0061): 100,000 runs seeded once into a
 * persistent Chromium profile (kept in SEARCH_TRACE_PROFILE between runs, so a run of this bench
 * costs a few reloads, not a seeding), then reloads N times and prints the worker's spans
 * (`src/lib/timeline/worker/search-trace.ts`) for the first search of each. Not part of `npm run bench`.
 */
import { existsSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import { demoConfig, serveApp } from '../scripts/serve-app';
import { startEmulator } from './support/app-run';
import { CHROMIUM_ARGS, chromiumExecutable } from '../tests/browser';
import { searchQueries } from './support/search-queries';
import { chunkCount, searchInPage, seedCodeForPage } from './support/search-in-page';
import { percentile } from './support/stats';

const RUNS = 100_000;
const profile = process.env['SEARCH_TRACE_PROFILE'] ?? '/tmp/search-trace-profile';
const reloads = Number(process.env['SEARCH_TRACE_RELOADS'] ?? 3);
const port = Number(process.env['SEARCH_TRACE_PORT'] ?? 8196);
const fresh = !existsSync(profile);

const emulator = await startEmulator();
const app = await serveApp({ root: process.env['SEARCH_TRACE_BUILD'] ?? 'build', port, config: demoConfig(emulator) });
const context = await chromium.launchPersistentContext(profile, {
	executablePath: chromiumExecutable(),
	args: CHROMIUM_ARGS,
	viewport: { width: 1280, height: 900 },
	serviceWorkers: 'block'
});
const page = context.pages()[0] ?? (await context.newPage());

const trace = async (p: Page) => {
	const out: string[] = [];
	for (const worker of p.workers()) {
		const spans = (await worker.evaluate('globalThis.__searchTrace ?? null').catch(() => null)) as Array<{
			name: string;
			start: number;
			ms: number;
		}> | null;
		if (spans) for (const s of spans) out.push(`    ${String(s.start).padStart(7)} +${String(s.ms).padStart(6)} ms  ${s.name}`);
	}
	return out.join('\n');
};

try {
	await page.goto(`${app.url}/`);
	if (fresh || (await chunkCount(page)) === 0) {
		await page
			.getByRole('heading', { name: 'No runs yet' })
			.waitFor({ timeout: 60_000 })
			.catch(() => undefined);
		await page.evaluate(await seedCodeForPage());
		await page.evaluate(`searchSeed.seed(${RUNS})`);
		console.log('seeded');
		await page.goto(`${app.url}/`);
		await page.locator('ul.virtual li').first().waitFor({ timeout: 120_000 });
		await searchInPage(page, 'zeppelin');
		let last = -1;
		for (let n = await chunkCount(page); n === 0 || n !== last; n = await chunkCount(page)) {
			last = n;
			await new Promise((r) => setTimeout(r, 3000));
		}
		console.log(`sealed: ${last} chunks`);
		// The reload right after sealing is slow (compaction): one to let it pass.
		await page.goto(`${app.url}/`);
		await page.locator('ul.virtual[aria-busy="false"]').waitFor({ state: 'attached', timeout: 300_000 });
	}
	for (let i = 0; i < reloads; i++) {
		const t0 = Date.now();
		await page.goto(`${app.url}/`);
		await page.locator('ul.virtual li').first().waitFor({ timeout: 120_000 });
		const firstRow = Date.now() - t0;
		const [ms, worker] = await searchInPage(page, i === 0 ? 'zeppelin' : `zeppelin ${['harbour', 'dawn', 'fog', 'sea'][i % 4]}`);
		console.log(`reload ${i}: first row ${firstRow} ms after goto; first search ${ms.toFixed(0)} ms (worker ${worker} ms)`);
		const later: number[] = [];
		for (const q of searchQueries()) {
			if ((await page.locator('ul.virtual[aria-busy="false"]').count()) > 0) break;
			later.push((await searchInPage(page, q))[1]);
		}
		console.log(
			`  ${later.length} searches while the list loads: worker p50 ${percentile(later, 50)} ms, p95 ${percentile(later, 95)} ms, max ${Math.max(...later)} ms`
		);
		await page.locator('ul.virtual[aria-busy="false"]').waitFor({ state: 'attached', timeout: 300_000 });
		console.log(await trace(page));
	}
} finally {
	await context.close();
	await app.close();
	await emulator.close();
}
