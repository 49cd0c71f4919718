/**
 * axe-core run in the page itself: its source is injected once per document, then `axe.run` reports
 * violations only. `@axe-core/playwright`'s `analyze()` sent axe's 550 KB source three times for every
 * check (twice into the page, once into a blank page it opened to merge the results) and returned every
 * passing node too: that was most of the accessibility walks' time (seconds a check on a busy machine).
 * The app has no frames, so the page's own `axe.run` sees everything.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function axeViolations(page: Page, tags: readonly string[]): Promise<AxeResults['violations']> {
	if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
	const results = await page.evaluate(
		(values) =>
			(window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe.run(document, {
				runOnly: { type: 'tag', values },
				resultTypes: ['violations']
			}),
		[...tags]
	);
	return results.violations;
}
