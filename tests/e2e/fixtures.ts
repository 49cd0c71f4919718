/**
 * Each Playwright worker owns an emulator (free ports) and serves the built app from a third
 * origin pointed at it, so scenarios and faults of one worker never touch another's.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { createEmulator, DEFAULT_PORTS, type Emulator } from '../../emulator/index';
import { demoConfig, serveApp, type ServedApp } from '../../scripts/serve-app';
import type { FaultSet, ScenarioName } from '../../emulator/scenarios';
import { PageErrorWatch, type ExpectedError } from './page-errors';
import { DEFAULT_TIMINGS, type AppTimings } from '../../src/lib/core/protocol/app-timings';

/**
 * The app's timers for tests: the undo window is shortened so no test waits out the product's 8 s
 * (an undo button still stays 1.5 s); polling keeps the product's pace, since faster polls cost the
 * suite more CPU than they save in waiting (decision 0056). A test about a timer serves its own.
 */
export const E2E_TIMINGS: AppTimings = { ...DEFAULT_TIMINGS, undoMs: 1500, undoGraceMs: 1000 };

export interface Control {
	reset(): Promise<void>;
	scenario(name: ScenarioName): Promise<void>;
	faults(faults: Partial<FaultSet> & { refuseSocketsForSeconds?: number }): Promise<void>;
	counters(): Promise<{ requests: Record<string, number>; uploadBytes: Record<string, number> }>;
	leaks(): Promise<unknown[]>;
}

interface WorkerFixtures {
	emulator: Emulator;
	app: ServedApp;
}

interface TestOptions {
	/** Errors every test of a file or describe block causes on purpose: `test.use({ expectedErrors: [{ pattern, reason }] })`. */
	expectedErrors: ExpectedError[];
}

/** The page-error watch of a test: `pageErrors.expect(/pattern/, 'why this test causes it')` declares an error expected. */
export type PageErrors = Pick<PageErrorWatch, 'expect' | 'caught'>;

interface TestFixtures {
	control: Control;
	pageErrors: PageErrors;
	/** Opens the app and waits until the worker has loaded the profiles. */
	openApp: (path?: string) => Promise<void>;
}

async function post(url: string, body: unknown): Promise<void> {
	const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
	if (!res.ok) throw new Error(`control ${url}: HTTP ${res.status} ${await res.text()}`);
}

export const test = base.extend<TestOptions & TestFixtures, WorkerFixtures>({
	expectedErrors: [[], { option: true }],
	// Automatic: every test fails on an error that escapes the app in any page it opens, in any context,
	// and in their workers, unless it declares that error expected (see page-errors.ts).
	pageErrors: [
		async ({ context, browser, expectedErrors }, use, testInfo) => {
			const watch = new PageErrorWatch(expectedErrors);
			watch.watch(context);
			// Contexts the test makes itself (browser.newPage makes one through newContext too).
			const newContext = browser.newContext;
			browser.newContext = async (...options) => {
				const made = await newContext.apply(browser, options);
				watch.watch(made);
				return made;
			};
			try {
				await use(watch);
			} finally {
				browser.newContext = newContext;
			}
			if (watch.caught.length > 0)
				await testInfo.attach('page errors', { body: watch.caught.map((e) => `${e.kind} in ${e.where}:\n${e.text}`).join('\n\n') });
			watch.check();
		},
		{ auto: true }
	],
	emulator: [
		async ({}, use) => {
			// Port 0 for every origin the emulator has, so parallel workers never collide.
			const ports = Object.fromEntries(Object.keys(DEFAULT_PORTS).map((name) => [name, 0]));
			const emulator = await createEmulator({ ports });
			await use(emulator);
			await emulator.close();
		},
		{ scope: 'worker' }
	],
	app: [
		async ({ emulator }, use) => {
			const app = await serveApp({
				root: 'build',
				config: demoConfig(emulator, { timings: E2E_TIMINGS })
			});
			await use(app);
			await app.close();
		},
		{ scope: 'worker' }
	],
	// Automatic: every test starts from a reset emulator and ends with an empty leak log.
	control: [
		async ({ emulator }, use) => {
			const base = `${emulator.urls.workflow}/__emulator`;
			const control: Control = {
				reset: () => post(`${base}/reset`, {}),
				scenario: (name) => post(`${base}/scenario`, { name }),
				faults: (faults) => post(`${base}/faults`, faults),
				counters: async () =>
					(await (await fetch(`${base}/counters`)).json()) as { requests: Record<string, number>; uploadBytes: Record<string, number> },
				leaks: async () => ((await (await fetch(`${base}/leaks`)).json()) as { leaks: unknown[] }).leaks
			};
			await control.reset();
			await use(control);
			expect(await control.leaks(), 'no credential may ever reach the storage origin').toEqual([]);
		},
		{ auto: true }
	],
	openApp: async ({ page, app }, use) => {
		await use(async (path = '/') => {
			await page.goto(`${app.url}${path}`);
			await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
		});
	}
});

export { expect };

/**
 * The leak check for what a person hands on (a run bundle's bytes, a share link): none of the
 * emulator's keys, no signed-URL signature, no key or token parameter in any URL it carries.
 */
export function expectNoCredentials(carried: string | Uint8Array, emulator: Emulator, what: string): void {
	const text = typeof carried === 'string' ? carried : Buffer.from(carried).toString('latin1');
	for (const key of [emulator.apiKey, emulator.deploymentKey]) expect(text.includes(key), `${what} carries a key`).toBe(false);
	expect(text, `${what} carries a signed URL`).not.toMatch(/X-(Goog|Amz)-(Signature|Credential)/i);
	expect(text, `${what} carries a URL with a key or token`).not.toMatch(/[?&](api_?key|token|access_token|sig|signature)=/i);
}

/** True when the page can scroll sideways: a layout bug on a phone. */
export async function hasHorizontalScroll(page: Page): Promise<boolean> {
	return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/** Opens an example workflow from the Workflows page; resolves once its run form is shown. */
export async function openExample(page: Page, title: string): Promise<void> {
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	await page.getByRole('button', { name: `Open example ${title}` }).click();
	await expect(page.getByRole('form', { name: 'Run form' })).toBeVisible();
}

/** Opens an example workflow, runs it once and opens the page of that run. */
export async function runExample(page: Page, title: string): Promise<void> {
	await openExample(page, title);
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: `Open run ${title}` }).click();
	// The workflow page shows the run's state too: be on the run's own page before anyone reads it.
	await expect(page).toHaveURL(/\/runs\//);
}

/** Posts to a workflow-service control route of the emulator. */
export async function workflowControl(emulator: Emulator, route: string, body: unknown): Promise<void> {
	await post(`${emulator.urls.workflow}/__emulator/workflow/${route}`, body);
}

/**
 * Waits until the service worker has cached the shell and is active. A test that goes offline to
 * exercise something else waits for it first: an install cut off by going offline logs Workbox's
 * failed precache fetch (the install is tried again on the next visit).
 */
export async function untilShellCached(page: Page): Promise<void> {
	await expect.poll(() => page.evaluate(() => navigator.serviceWorker.ready.then(() => true)), { timeout: 20_000 }).toBe(true);
}
