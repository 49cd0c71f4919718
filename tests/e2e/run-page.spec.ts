import { test, expect, openExample, workflowControl, runExample } from './fixtures';
import { holdNode, release } from './holds';

test('a queued run shows how many jobs are ahead and about how long it will take', async ({ page, openApp, emulator }) => {
	await openApp('/');
	await runExample(page, 'Text to image');
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	// The first of the next two runs is held in its sampler, so the second waits behind it.
	await holdNode(emulator, { classType: 'KSampler' });

	await page.getByRole('link', { name: 'Open workflow' }).click();
	await page.getByLabel('Run times').fill('2');
	await page.getByRole('button', { name: 'Run 2 times' }).click();
	await page.getByRole('link', { name: 'Open run Text to image' }).nth(1).click();
	await expect(page.getByRole('status').filter({ hasText: /1 job ahead; done in about \d+ s\./ })).toBeVisible();
	await release(emulator);
});

test('run again with the inputs of an earlier run', async ({ page, openApp, emulator }) => {
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/');
	await openExample(page, 'Text to image');
	const text = page.getByRole('region', { name: 'Node CLIP Text Encode (Positive)' }).getByRole('textbox', { name: 'text' });
	await text.fill('first version');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await expect(page.getByRole('link', { name: 'Open run Text to image' })).toBeVisible();
	await text.fill('second version');
	await page.getByRole('link', { name: 'Open run Text to image' }).click();
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
	await page.getByRole('button', { name: 'Copy inputs as JSON' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Copied the inputs as API-format JSON.' })).toBeVisible();
	expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('first version');
	await page.getByRole('button', { name: 'Run again with these inputs' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Filled with the inputs of the run' })).toBeVisible();
	await expect(page.getByRole('region', { name: 'Node CLIP Text Encode (Positive)' }).getByRole('textbox', { name: 'text' })).toHaveValue(
		'first version'
	);
});

test('a workflow is copied as code with the key as a variable, and its run lists the inputs used in the form order', async ({
	page,
	openApp,
	emulator
}) => {
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
	await openApp('/');
	await openExample(page, 'Text to image');
	const text = page.getByRole('region', { name: 'Node CLIP Text Encode (Positive)' }).getByRole('textbox', { name: 'text' });
	await text.fill('a lighthouse in fog');
	await page.locator('summary', { hasText: 'Copy as code' }).click();
	const copy = page.getByRole('group', { name: 'Copy as code' });
	await copy.getByRole('button', { name: 'Copy as Python' }).click();
	await expect(copy.getByRole('status')).toContainText('Copied as Python (requests).');
	const python = await page.evaluate(() => navigator.clipboard.readText());
	expect(python).toContain('/api/prompt');
	expect(python).toContain('a lighthouse in fog');
	expect(python).toContain('os.environ["WORKFLOW_API_KEY"]');
	expect(python).not.toContain(emulator.apiKey);
	await copy.getByRole('button', { name: 'Copy as JavaScript' }).click();
	const js = await page.evaluate(() => navigator.clipboard.readText());
	expect(js).toContain('process.env.WORKFLOW_API_KEY');
	expect(js).not.toContain(emulator.apiKey);

	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Text to image' }).click();
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	const used = page.getByRole('region', { name: 'Inputs used' });
	// What people care about first, in the form's node order: the sampler (node 3) before the prompt's encoder (node 6).
	const terms = await used.locator('dl').first().locator('dt').allTextContents();
	const prompt = terms.findIndex((t) => t.endsWith('· text'));
	const seed = terms.findIndex((t) => t.endsWith('· seed'));
	expect(seed).toBeGreaterThanOrEqual(0);
	expect(prompt).toBeGreaterThan(seed);
	expect(terms.findIndex((t) => t.endsWith('· steps'))).toBeGreaterThan(seed);
	await expect(used).toContainText('a lighthouse in fog');
});

test.describe('on a phone', () => {
	test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

	test('pulling down the Runs list refreshes it', async ({ page, openApp }) => {
		await openApp('/');
		const status = page.locator('.pull');
		await page.evaluate(() => {
			const target = document.querySelector('.pull')!.parentElement!;
			const touch = (y: number) => new Touch({ identifier: 1, target, clientX: 200, clientY: y });
			target.dispatchEvent(new TouchEvent('touchstart', { touches: [touch(100)], bubbles: true }));
			target.dispatchEvent(new TouchEvent('touchmove', { touches: [touch(200)], bubbles: true }));
		});
		await expect(status).toHaveText('Release to refresh');
		await page.evaluate(() => document.querySelector('.pull')!.parentElement!.dispatchEvent(new TouchEvent('touchend', { bubbles: true })));
		await expect(status).toHaveText('');
		await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
	});
});
