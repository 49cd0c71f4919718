/**
 * The built app (`build/`) on its own origin, pointed at an emulator on free ports, in a headless
 * Chromium, showing the run page of a real text-to-image run that sits in its first KSampler step
 * (60 s a step), so benchmark streams can be sent for its prompt id.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { createEmulator, DEFAULT_PORTS, type Emulator } from '../../emulator/index';
import { demoConfig, serveApp, type ServedApp } from '../../scripts/serve-app';
import { CHROMIUM_ARGS, chromiumExecutable } from '../../tests/browser';
import { benchContext } from './wait';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunningRun {
	emulator: Emulator;
	browser: Browser;
	page: Page;
	promptId: string;
	/** POSTs to a control route of the workflow origin, e.g. `workflow/bench/previews`; gives its JSON. */
	control<T>(route: string, body: unknown): Promise<T>;
	close(): Promise<void>;
}

export async function startEmulator(): Promise<Emulator> {
	const ports = Object.fromEntries(Object.keys(DEFAULT_PORTS).map((name) => [name, 0]));
	return createEmulator({ ports });
}

export async function control<T>(emulator: Emulator, route: string, body: unknown): Promise<T> {
	const res = await fetch(`${emulator.urls.workflow}/__emulator/${route}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body)
	});
	if (!res.ok) throw new Error(`control ${route}: HTTP ${res.status} ${await res.text()}`);
	return (await res.json()) as T;
}

export async function launchChromium(): Promise<Browser> {
	return chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
}

/** Opens the app on the run page of a fresh run; `initScript` runs in the page before the app does. */
export async function openRunningRun(emulator: Emulator, browser: Browser, initScript: string): Promise<RunningRun> {
	const buildDir = join(root, 'build');
	if (!existsSync(join(buildDir, 'index.html'))) throw new Error('build/index.html is missing: run `npm run build` first.');
	const app: ServedApp = await serveApp({
		root: buildDir,
		config: demoConfig(emulator)
	});
	// No service worker: every load comes from the server, and nothing outlives the context.
	const context = await benchContext(browser, { serviceWorkers: 'block', viewport: { width: 1280, height: 1000 } });
	const close = async () => {
		await context.close();
		await app.close();
	};
	try {
		const page = await context.newPage();
		await page.addInitScript(initScript);
		await control(emulator, 'workflow/timing', { stepMs: 60_000 });
		await page.goto(`${app.url}/`);
		await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
		await page.getByRole('button', { name: 'Open example Text to image' }).click();
		await page.getByRole('button', { name: 'Run', exact: true }).click();
		await page.getByRole('link', { name: 'Open run Text to image' }).click();
		await page.getByText(/Running KSampler/).waitFor({ timeout: 90_000 });
		const promptId = await jobIdOf(page);
		return { emulator, browser, page, promptId, control: (route, body) => control(emulator, route, body), close };
	} catch (error) {
		await close();
		throw error;
	}
}

/** The service's job id the run page shows (under Details, closed: read from the DOM, not seen). */
async function jobIdOf(page: Page): Promise<string> {
	const jobId = (await page.locator('[data-job-id]').getAttribute('data-job-id'))?.trim() ?? '';
	if (!jobId) throw new Error('the run page shows an empty job id ([data-job-id])');
	return jobId;
}

/**
 * On the page of `run`: adds a Cloud profile for `service`, an emulator of its own (whose engine is
 * free while the first run holds the other's; its workflow service offers v2, so its runs go through
 * `/api/v2`), makes it active, and opens the run page of a fresh text-to-image run sitting in its first
 * KSampler step. Gives the v2 job id.
 */
export async function openV2Run(run: RunningRun, service: Emulator): Promise<string> {
	const { page } = run;
	await control(service, 'workflow/timing', { stepMs: 60_000 });
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: /^Cloud/ }).check();
	await form.getByLabel('Workflow service URL').fill(service.urls.workflow);
	await form.getByRole('textbox', { name: 'API key' }).fill(service.apiKey);
	await form.getByRole('button', { name: 'Save profile' }).click();
	await page.getByRole('button', { name: 'Test connection of Cloud' }).waitFor({ timeout: 30_000 });
	const use = page.getByRole('button', { name: 'Use Cloud' });
	if (await use.isVisible()) await use.click();
	await page.getByRole('link', { name: /Connection: Cloud, Live/ }).waitFor({ timeout: 30_000 });
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	await page.getByRole('button', { name: 'Open example Text to image' }).click();
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Text to image' }).first().click();
	await page.getByText(/Running KSampler/).waitFor({ timeout: 90_000 });
	return jobIdOf(page);
}
