/** The Runs page's search, driven as a person types, and its stored chunks counted: shared by the search bench and its first-search trace. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import type { Page } from '@playwright/test';

/** Types `query` into the search box and waits for the count to be painted; gives [ms from typing, the worker's ms]. */
export async function searchInPage(page: Page, query: string): Promise<[number, number]> {
	return page.evaluate(`new Promise((resolve) => {
		const input = document.querySelector('input[type=search]');
		const start = performance.now();
		const done = () => {
			const status = document.querySelector('p.found');
			const m = status && /found in (\\d+) ms/.exec(status.textContent || '');
			if (!m) return false;
			requestAnimationFrame(() => resolve([performance.now() - start, Number(m[1])]));
			return true;
		};
		new MutationObserver((_r, observer) => { if (done()) observer.disconnect(); })
			.observe(document.body, { subtree: true, childList: true, characterData: true });
		input.value = ${JSON.stringify(query)};
		input.dispatchEvent(new Event('input', { bubbles: true }));
	})`) as Promise<[number, number]>;
}

/** How many chunks of search texts the app has stored (`sc:` keys), read in the page. */
export function chunkCount(page: Page): Promise<number> {
	return page.evaluate(`(async () => {
	const db = await new Promise((resolve) => { const open = indexedDB.open('runboard'); open.onsuccess = () => resolve(open.result); });
	const n = await new Promise((resolve) => { const req = db.transaction('kv').objectStore('kv').count(IDBKeyRange.bound('sc:', 'sc:\\uffff')); req.onsuccess = () => resolve(req.result); });
	db.close();
	return n;
})()`) as Promise<number>;
}

/** The in-page half (`search-seed.page.ts`), bundled for `page.evaluate`: it makes and writes the runs inside the page, as `searchSeed`. */
export async function seedCodeForPage(): Promise<string> {
	const bundle = await esbuild({
		entryPoints: [join(dirname(fileURLToPath(import.meta.url)), 'search-seed.page.ts')],
		bundle: true,
		format: 'iife',
		globalName: 'searchSeed',
		platform: 'browser',
		write: false
	});
	return `${bundle.outputFiles[0]!.text}\n;globalThis.searchSeed = searchSeed; 0`;
}
