/** The main journeys, one screenshot per step, into screenshots/<size>/NN-name.png. */
import type { Page } from '@playwright/test';
import { test, expect, openExample, workflowControl } from '../e2e/fixtures';
import { routerControl } from '../e2e/models-helpers';

function shooter(page: Page, size: string) {
	let n = 0;
	return async (name: string, fullPage = false) => {
		await page.waitForTimeout(300); // let transitions settle
		n++;
		await page.screenshot({ path: `screenshots/${size}/${String(n).padStart(2, '0')}-${name}.png`, fullPage });
	};
}

async function runModel(page: Page, openApp: (p?: string) => Promise<void>, id: string, field: string, text: string) {
	await openApp(`/models/${id}`);
	const form = page.getByRole('form', { name: `Input of ${id}` });
	await expect(form).toBeVisible();
	await form.getByRole('textbox', { name: field, exact: true }).fill(text);
	await form.getByRole('button', { name: 'Run now' }).click();
	await expect(page.getByRole('region', { name: 'Runs of this model' }).getByRole('status').first()).toHaveText('Succeeded');
}

test('main journeys', async ({ page, openApp, emulator }) => {
	const size = test.info().project.name;
	const shot = shooter(page, size);
	await workflowControl(emulator, 'timing', { stepMs: 150 });
	await routerControl(emulator, 'settings', { providerMs: 300 });

	await openApp('/');
	await shot('runs-empty');
	await openExample(page, 'Text to image');
	await shot('workflow-form');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await expect(page.getByText(/Running KSampler: step/)).toBeVisible();
	await shot('workflow-running');
	await expect(page.getByRole('region', { name: 'Run and results' }).getByRole('img', { name: /Output ComfyUI_/ })).toBeVisible();
	await shot('workflow-result');
	await page.emulateMedia({ colorScheme: 'dark' });
	await shot('workflow-result-dark');
	await page.emulateMedia({ colorScheme: 'light' });

	if (size === 'phone') await page.getByRole('button', { name: 'Back to the form' }).click();
	await page.getByLabel('Run times').fill('2');
	await page.getByRole('button', { name: 'Run 2 times' }).click();
	await expect(page.getByRole('region', { name: 'Runs started' }).getByRole('img', { name: /Output ComfyUI_/ })).toHaveCount(2);
	await shot('workflow-run-twice');
	const strip = page.getByRole('region', { name: 'Earlier runs here' });
	await strip.getByRole('checkbox').nth(0).check();
	await strip.getByRole('checkbox').nth(1).check();
	await strip.getByRole('button', { name: 'Compare 2 runs' }).click();
	await expect(page.getByRole('region', { name: 'Compare runs' })).toBeVisible();
	await shot('workflow-compare');
	await page
		.getByRole('region', { name: 'Compare runs' })
		.getByRole('link', { name: /Open run/ })
		.first()
		.click();
	await expect(page).toHaveURL(/\/runs\//);
	await expect(page.getByRole('heading', { name: 'Text to image' })).toBeVisible();
	await shot('run-page', true);
	await page.getByRole('tab', { name: 'Graph' }).click();
	await expect(page.getByRole('region', { name: 'Run graph' }).locator('.node').first()).toBeVisible({ timeout: 20_000 });
	await shot('run-graph');

	await openApp('/workflows');
	await shot('workflows');
	await openApp('/queue');
	await shot('queue');

	await openApp('/models');
	await shot('model-catalog');
	await runModel(page, openApp, 'lumen/flux-1', 'Prompt', 'A lighthouse at dusk');
	await shot('model-image');
	await runModel(page, openApp, 'quill/quill-mini', 'Prompt', 'list three colours');
	await shot('model-text');
	await runModel(page, openApp, 'tidal/wave-1-t2v', 'Prompt', 'rain on a window');
	await shot('model-video');
	await runModel(page, openApp, 'sonora/speech-1', 'Text', 'Your run has finished.');
	await shot('model-audio');

	await openApp('/');
	await shot('runs-timeline');
	const modelRun = page.getByRole('link', { name: /Run tidal\/wave-1-t2v/ }).first();
	await openApp((await modelRun.getAttribute('href'))!);
	await shot('model-run-page', true);
	await openApp('/settings');
	await shot('settings');
});
