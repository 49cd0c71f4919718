/**
 * How a benchmark waits for the page. Something the page should show promptly (a control, a line of
 * text, a job id) is waited for PROMPT_MS, not Playwright's 30 s: a locator gone stale after a UI change
 * then fails the benchmark in seconds, and the error names what was waited for. A wait that is long
 * on purpose (a run reaching its sampler, a catalog walk) passes its own timeout.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from '@playwright/test';

// Ten seconds, not five: an action also waits for its element to hold still for two frames, and with
// the machine's two cores shared by several test runs (load average 15) that alone took 3-5 s.
export const PROMPT_MS = 10_000;
/** A page load of the built app from loopback, on a machine other processes keep busy. */
export const NAVIGATION_MS = 20_000;

/** A browser context whose every wait without a timeout of its own ends after PROMPT_MS. */
export async function benchContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
	const context = await browser.newContext(options);
	context.setDefaultTimeout(PROMPT_MS);
	context.setDefaultNavigationTimeout(NAVIGATION_MS);
	return context;
}

/**
 * Waits until `predicate` (in-page code, an expression or a function of no arguments) holds, polling every `polling` ms;
 * a timeout becomes an error that says what was waited for, e.g. "waited 5 s for the catalog status to
 * say 'Up to date'".
 */
export async function until(
	page: Page,
	what: string,
	predicate: string | (() => unknown),
	{ timeout = PROMPT_MS, polling = 50 }: { timeout?: number; polling?: number } = {}
): Promise<void> {
	try {
		await page.waitForFunction(predicate, undefined, { timeout, polling });
	} catch (error) {
		throw new Error(`waited ${timeout / 1000} s for ${what}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
	}
}
