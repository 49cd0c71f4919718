/**
 * Planted errors for `../page-errors.spec.ts`: each test is named for what it plants and what the
 * page-error fixture must make of it. Run alone, the "fails" tests fail: that is their point. Each
 * says so with `test.fail()`, so the child run keeps its worker: a failure the runner did not expect
 * would start a new worker, browser, emulator and app after every one of them (most of the 45 s this took).
 */
import { test, expect } from '../fixtures';
import type { Page } from '@playwright/test';

/** Waits until the fixture has seen `count` errors, so a test does not end before its planted error arrives. */
async function seen(pageErrors: { caught: readonly unknown[] }, count = 1): Promise<void> {
	await expect.poll(() => pageErrors.caught.length).toBeGreaterThanOrEqual(count);
}

/** Starts a worker of the page's own (not the app's), from its origin, whose code throws once it gets a message. */
async function throwingWorker(page: Page): Promise<void> {
	await page.route('**/planted-worker.js', (route) =>
		route.fulfill({ contentType: 'text/javascript', body: "self.onmessage = () => { throw new Error('planted worker error'); };" })
	);
	await page.evaluate(() => new Worker('/planted-worker.js').postMessage('go'));
}

test('fails: an uncaught error in the page', async ({ page, openApp, pageErrors }) => {
	test.fail();
	await openApp('/');
	await page.evaluate(() => {
		setTimeout(() => {
			throw new Error('planted page error');
		});
	});
	await seen(pageErrors);
});

test('fails: an unhandled rejection in the page', async ({ page, openApp, pageErrors }) => {
	test.fail();
	await openApp('/');
	await page.evaluate(() => {
		void Promise.reject(new Error('planted rejection'));
	});
	await seen(pageErrors);
});

test('fails: an error event in a worker', async ({ page, openApp, pageErrors }) => {
	test.fail();
	await openApp('/');
	await throwingWorker(page);
	await seen(pageErrors);
});

test("fails: console.error in the app's worker", async ({ page, openApp, pageErrors }) => {
	test.fail();
	await openApp('/');
	await expect.poll(() => page.workers().length).toBeGreaterThan(0);
	await page.workers()[0]!.evaluate(() => console.error('planted worker log'));
	await seen(pageErrors);
});

test.describe('with the service worker', () => {
	// This journey needs the service worker, which the suite blocks by default (decision 0058).
	test.use({ serviceWorkers: 'allow' });

	test('fails: an unhandled rejection in the service worker', async ({ page, openApp, context, pageErrors }) => {
		test.fail();
		await openApp('/');
		const serviceWorker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
		// The fixture's listener is installed as the service worker appears; a first message makes sure it ran.
		await expect.poll(() => serviceWorker.evaluate(() => 'ready')).toBe('ready');
		await serviceWorker.evaluate(() => {
			void Promise.reject(new Error('planted service worker rejection'));
		});
		await seen(pageErrors);
		await page.close();
	});
});

test('fails: an uncaught error in a page of a context the test made', async ({ browser, app, pageErrors }) => {
	test.fail();
	const other = await browser.newPage();
	try {
		await other.goto(app.url);
		await other.evaluate(() => {
			setTimeout(() => {
				throw new Error('planted error in another context');
			});
		});
		await seen(pageErrors);
	} finally {
		await other.context().close();
	}
});

test('passes: an error the test declares expected', async ({ page, openApp, pageErrors }) => {
	pageErrors.expect(/planted page error/, 'the test throws it to show a declared error passes');
	await openApp('/');
	await page.evaluate(() => {
		setTimeout(() => {
			throw new Error('planted page error');
		});
	});
	await seen(pageErrors);
});

test.describe('errors a whole block declares', () => {
	test.use({ expectedErrors: [{ pattern: 'planted worker error', reason: 'the block plants it' }] });

	test('passes: an error the block declares expected', async ({ page, openApp, pageErrors }) => {
		await openApp('/');
		await throwingWorker(page);
		await seen(pageErrors);
	});
});

test('passes: failed loads Chromium logs as console errors', async ({ page, openApp }) => {
	await openApp('/');
	const logged = page.waitForEvent('console', (m) => m.type() === 'error');
	await page.evaluate(async () => {
		await fetch('/no-such-file.json').catch(() => undefined);
	});
	expect((await logged).text()).toMatch(/Failed to load resource/);
});
