/**
 * The browser journeys of the real-server tier: the built app, served on the one origin the real proxy
 * allows (RUNBOARD_REAL_APP_ORIGIN), with no demo profile; each test adds the profile it drives.
 */
import { execSync } from 'node:child_process';
import { test as base, expect, type Page } from '@playwright/test';
import { serveApp, type ServedApp } from '../../scripts/serve-app';
import { PageErrorWatch } from '../e2e/page-errors';

export const APP_ORIGIN = (process.env['RUNBOARD_REAL_APP_ORIGIN'] ?? 'http://127.0.0.1:8720').replace(/\/$/, '');

interface WorkerFixtures {
	app: ServedApp;
}

interface TestFixtures {
	/** Every request the page and its workers send, by URL, with the time it was sent. */
	requests: { url: string; method: string; at: number }[];
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
	app: [
		async ({}, use) => {
			const origin = new URL(APP_ORIGIN);
			const app = await serveApp({ root: 'build', host: origin.hostname, port: Number(origin.port), config: {} });
			await use(app);
			await app.close();
		},
		{ scope: 'worker' }
	],
	requests: async ({ context }, use) => {
		const seen: { url: string; method: string; at: number }[] = [];
		context.on('request', (request) => seen.push({ url: request.url(), method: request.method(), at: Date.now() }));
		await use(seen);
	},
	page: async ({ page, context }, use, testInfo) => {
		// Errors that escape the app fail the test, as in the e2e suite; the real servers' refusals are expected here.
		const watch = new PageErrorWatch([{ pattern: /.*/, reason: 'real servers go down and refuse on purpose in this tier' }]);
		watch.watch(context);
		await use(page);
		if (watch.caught.length > 0)
			await testInfo.attach('page errors', { body: watch.caught.map((e) => `${e.kind} in ${e.where}:\n${e.text}`).join('\n\n') });
	}
});

export { expect };

/** Runs one of the shell commands the environment names (stop or start a real ComfyUI). */
export function runCommand(name: string): void {
	const command = process.env[name];
	if (!command) throw new Error(`${name} is not set`);
	execSync(command, { stdio: 'inherit', shell: '/bin/sh', timeout: 180_000 });
}

/** Opens the app's Settings page, adds a profile of that kind for the real servers, and makes it the active one. */
export async function addRealProfile(
	page: Page,
	app: ServedApp,
	profile: { kind: 'Local ComfyUI'; url: string } | { kind: 'Self-hosted proxy'; url: string; comfyUrl: string | null }
): Promise<void> {
	await page.goto(`${app.url}/settings`);
	await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: new RegExp(`^${profile.kind}`) }).check();
	if (profile.kind === 'Local ComfyUI') {
		await form.getByLabel('Workflow service URL').fill(profile.url);
	} else {
		await form.getByLabel('Proxy address').fill(profile.url);
		if (profile.comfyUrl) await form.getByLabel('ComfyUI address (behind the proxy)').fill(profile.comfyUrl);
	}
	await form.getByRole('button', { name: 'Save profile' }).click();
	await expect(page.getByRole('article', { name: `Profile ${profile.kind}` })).toBeVisible();
	const use = page.getByRole('button', { name: `Use ${profile.kind}` });
	if (await use.isVisible()) await use.click();
	await expect(page.getByRole('link', { name: new RegExp(`Connection: ${profile.kind}, Live`) })).toBeVisible({ timeout: 20_000 });
}

/** Pastes an API-format workflow on the Workflows page and waits for its run form. */
export async function pasteWorkflow(page: Page, json: unknown): Promise<void> {
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	await page.getByLabel('Or paste the workflow JSON').fill(JSON.stringify(json));
	await page.getByRole('button', { name: 'Import pasted JSON' }).click();
	await expect(page.getByRole('form', { name: 'Run form' })).toBeVisible();
}

/** Presses Run on the open workflow and goes to the run's own page. */
export async function runAndOpen(page: Page): Promise<void> {
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page
		.getByRole('link', { name: /^Open run / })
		.first()
		.click({ timeout: 20_000 });
	await expect(page).toHaveURL(/\/runs\//);
}

/** The run page's status badge, beside its title (the graph's boxes say Done and Running too). */
export function runStatus(page: Page, words: string) {
	return page.locator('main header').getByText(words, { exact: true });
}

/** The output shown on a run page is a video the browser can read (its width known), not a picture. */
export async function expectPlayableVideo(page: Page, width: number): Promise<void> {
	const video = page.locator('video[aria-label^="Output "]').first();
	await expect(video).toBeVisible({ timeout: 30_000 });
	await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 30_000 }).toBe(width);
	await expect(page.getByRole('img', { name: /^Output / })).toHaveCount(0);
}
