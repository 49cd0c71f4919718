/**
 * Model sweeps (#30): the same input on three router models, by two seeds, from a model's page.
 * Runs are caught with the router's provider hold, never slowed down; the router's in-flight limit
 * refuses the calls past it (429), and its dispatch counters say each cell ran once.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { counters, holdProvider, releaseProvider, routerControl, untilHeld } from './models-helpers';
import { CELLS, reopenFromGridPicture, sweepProgress as progress } from './sweep-helpers';

const dispatches = async (emulator: Parameters<typeof counters>[0]) =>
	Object.values((await counters(emulator)).dispatches).reduce((a, b) => a + b, 0);

test('a model sweep across 3 models fills its grid, paced by the router’s in-flight limit @phone', async ({ page, openApp, emulator }) => {
	await routerControl(emulator, 'settings', { providerMs: 20, inFlightLimit: 2 });
	await holdProvider(emulator, {});
	await openApp('/models/lumen/flux-1');
	const form = page.getByRole('form', { name: 'Input of lumen/flux-1' });
	await expect(form).toBeVisible({ timeout: 15_000 });
	await form.getByRole('textbox', { name: 'Prompt', exact: true }).fill('A lighthouse at dusk');

	await page.getByText('Sweep: vary inputs').click();
	const others = page.getByRole('group', { name: 'The same input on other models' });
	for (const id of ['stratus/sd-3', 'vertex/imagen-3']) {
		await others.getByRole('combobox', { name: 'Model from the catalog' }).fill(id);
		await others.getByRole('button', { name: 'Add model' }).click();
		// Its own fields (not on this model's form) are set for it, from its defaults.
		await expect(page.getByRole('region', { name: `Sweep model ${id}` }).getByRole('textbox')).toHaveValue(/"/, { timeout: 15_000 });
	}
	await page.getByRole('button', { name: 'Add an input to vary' }).click();
	const seeds = page.getByRole('group', { name: 'Input to vary 1 (rows)' });
	await seeds.getByRole('combobox', { name: 'Input' }).selectOption({ label: 'Seed' });
	await seeds.getByRole('textbox', { name: 'Values of input to vary 1' }).fill('1, 2');
	await expect(page.getByRole('status', { name: 'Sweep size' })).toHaveText('6 runs (3 × 2)');
	// No price is invented: nothing here has reported what these models use.
	await expect(page.getByLabel('Sweep estimate')).toContainText(
		'Spend: not known (no past run of lumen/flux-1, stratus/sd-3, vertex/imagen-3'
	);
	// Over the limit the person set, the sweep asks first.
	await page.getByRole('group', { name: 'Sweep limits' }).getByRole('spinbutton').first().fill('5');
	await page.getByRole('button', { name: 'Start sweep of 6 runs' }).click();
	await expect(page.getByRole('alert')).toContainText('6 runs is more than your limit of 5 runs for one sweep. Start it anyway?');
	await page.getByRole('button', { name: 'Start anyway' }).click();
	await expect(page).toHaveURL(/\/sweeps\//);
	await expect(page.locator(CELLS)).toHaveCount(6);

	// Two calls are held at the provider; the router refuses the ones past its limit and the sweep waits.
	await untilHeld(emulator, 2);
	await expect(page.getByText(/Last refusal: .*maximum calls in flight/)).toBeVisible({ timeout: 15_000 });
	await expect(progress(page)).toContainText('Running: 0 of 6 done');
	await holdProvider(emulator, null);
	await releaseProvider(emulator);

	await expect(progress(page)).toHaveText('Finished: 6 of 6 done', { timeout: 45_000 });
	const grid = page.getByRole('region', { name: 'Sweep grid' });
	await expect(grid.getByRole('img', { name: 'Output' })).toHaveCount(6);
	await expect(page.getByRole('cell', { name: 'Model vertex/imagen-3, Seed 2' }).getByRole('link')).toHaveAttribute('href', /\/runs\//);
	expect(await dispatches(emulator), 'each cell ran once, whatever the refusals').toBe(6);

	// A keeper is starred with the app's own stars; the grid zooms.
	const star = page.getByRole('button', { name: 'Star Model stratus/sd-3, Seed 1' });
	await star.click();
	await expect(star).toHaveAttribute('aria-pressed', 'true');
	await page.getByRole('button', { name: 'Zoom in' }).click();
	await expect(page.getByRole('group', { name: 'Grid zoom' })).toContainText('125 %');

	// Its grid picture carries no workflow, only the sweep: dropped back on Runboard, it reopens the sweep.
	const sweepUrl = page.url();
	await reopenFromGridPicture(page, 'Finished: 6 of 6 done');

	// The Runs list shows the model sweep as one entry, which opens its grid.
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	const entry = page.getByRole('link', { name: /Sweep: .+ \(6 runs\)/ });
	await expect(entry).toHaveCount(1);
	await entry.click();
	await expect(page).toHaveURL(sweepUrl);
	await expect(page.locator(CELLS)).toHaveCount(6);
});
