/**
 * Every page at desk (1280 x 800) and phone (390 x 844, the @phone project) size, in light and dark:
 * no axe-core violation of any impact (minor and moderate count too), no sideways scroll, and on the phone tap targets of 44 px.
 */
import type { Page } from '@playwright/test';
import { axeViolations } from './axe-check';
import { test, expect, openExample, workflowControl, hasHorizontalScroll } from './fixtures';
import { routerControl } from './models-helpers';

/** Buttons, fields and button-like links smaller than 44 px (a checkbox or radio counts by its label). */
async function smallTapTargets(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const out: string[] = [];
		const selector = 'button, select, textarea, summary, a.button, input:not([type="hidden"]), [role="button"]';
		for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
			if (el.closest('dialog:not([open]), details:not([open]) > :not(summary), [hidden], .visually-hidden')) continue;
			const input = el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio');
			const target = input ? (el.closest('label') ?? el) : el;
			const box = target.getBoundingClientRect();
			const style = getComputedStyle(el);
			if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.display === 'none') continue;
			if (box.height < 43.5 || box.width < 43.5)
				out.push(
					`${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}" ${Math.round(box.width)}x${Math.round(box.height)}`
				);
		}
		return out;
	});
}

/** How long each axe run took, printed at the end (a cost note for docs/ARCHITECTURE.md). */
const analyzeMs: number[] = [];

/** Checks the page as it is in light, then in dark: one walk serves both schemes (setup and page loads are most of a walk). */
async function check(page: Page, name: string, phone: boolean): Promise<string[]> {
	const problems: string[] = [];
	for (const scheme of ['light', 'dark'] as const) {
		await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
		problems.push(...(await checkScheme(page, `${name} (${scheme})`, phone)));
	}
	return problems;
}

async function checkScheme(page: Page, name: string, phone: boolean): Promise<string[]> {
	const problems: string[] = [];
	const started = Date.now();
	const violations = await axeViolations(page, ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
	analyzeMs.push(Date.now() - started);
	for (const v of violations)
		problems.push(
			`${name}: ${v.id} (${v.impact}) ${v.nodes
				.map((n) => n.target.join(' '))
				.slice(0, 3)
				.join(' | ')}`
		);
	if (await hasHorizontalScroll(page)) problems.push(`${name}: scrolls sideways`);
	if (phone) for (const t of await smallTapTargets(page)) problems.push(`${name}: tap target ${t}`);
	return problems;
}

test('every page passes the accessibility check in light and in dark @phone', async ({ page, openApp, emulator }) => {
	test.setTimeout(240_000);
	const phone = test.info().project.name === 'phone';
	await page.emulateMedia({ reducedMotion: 'reduce' });
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await routerControl(emulator, 'settings', { providerMs: 50 });
	const problems: string[] = [];

	// A workflow run and a model run first, so results, history and run pages have something to show.
	await openApp('/');
	problems.push(...(await check(page, 'runs (empty)', phone)));
	await openExample(page, 'Text to image');
	problems.push(...(await check(page, 'workflow', phone)));
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	const pane = page.getByRole('region', { name: 'Run and results' });
	await expect(pane.getByRole('img', { name: /Output ComfyUI_\d+_\.png/ })).toBeVisible({ timeout: 30_000 });
	problems.push(...(await check(page, 'workflow with its result', phone)));
	const runHref = (await pane.getByRole('link', { name: 'Open run Text to image' }).getAttribute('href'))!;

	await openApp('/models/lumen/flux-1');
	const form = page.getByRole('form', { name: 'Input of lumen/flux-1' });
	await expect(form).toBeVisible({ timeout: 15_000 });
	problems.push(...(await check(page, 'model', phone)));
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('A lighthouse at dusk');
	await form.getByRole('button', { name: 'Run now' }).click();
	await expect(page.getByRole('region', { name: 'Runs of this model' }).getByRole('img', { name: /image 1 of/ })).toBeVisible({
		timeout: 30_000
	});
	problems.push(...(await check(page, 'model with its result', phone)));

	for (const [name, path] of [
		['runs', '/'],
		['run page', runHref],
		['workflows', '/workflows'],
		['models', '/models'],
		['queue', '/queue'],
		['settings', '/settings']
	] as const) {
		await openApp(path);
		// The catalog's tiles fill in from a background read of every model's schema: check them filled in.
		if (path === '/models') {
			// The model page read the catalog a moment ago (its sweep picks models from it): a list saved
			// that recently is shown as saved, not walked again.
			await expect(page.getByRole('status', { name: 'Catalog status' })).toContainText(/Up to date|showing the saved list/, {
				timeout: 20_000
			});
			await expect(page.getByText(/reading model details/)).toHaveCount(0, { timeout: 60_000 });
		}
		await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
		problems.push(...(await check(page, name, phone)));
	}
	await openApp('/');
	const modelRun = page.getByRole('link', { name: /Run lumen\/flux-1/ }).first();
	await expect(modelRun).toBeVisible({ timeout: 15_000 });
	await openApp((await modelRun.getAttribute('href'))!);
	problems.push(...(await check(page, 'model run page', phone)));

	console.log(
		`axe: ${analyzeMs.length} pages, median ${analyzeMs.sort((a, b) => a - b)[analyzeMs.length >> 1]} ms, max ${Math.max(...analyzeMs)} ms`
	);
	expect(problems).toEqual([]);
});
