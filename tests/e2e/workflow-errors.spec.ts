import type { Page } from '@playwright/test';
import { test, expect, openExample, workflowControl } from './fixtures';

async function runExpectingRefusal(page: Page) {
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	return page.getByRole('alert', { name: 'The service refused the run' });
}

test('no credits (402) is explained with the next step', async ({ page, openApp, control }) => {
	await openApp('/');
	await openExample(page, 'Text to image');
	await control.scenario('no-credits');
	const refusal = await runExpectingRefusal(page);
	await expect(refusal).toContainText('The account has no credits left. Add credits, then try again.');
	await expect(refusal).toContainText('HTTP 402');
});

test('an inactive subscription (429) is explained with the next step', async ({ page, openApp, control }) => {
	await openApp('/');
	await openExample(page, 'Text to image');
	await control.scenario('inactive-subscription');
	const refusal = await runExpectingRefusal(page);
	await expect(refusal).toContainText('The subscription is not active. Renew it');
	await expect(refusal).toContainText('HTTP 429');
});

test('a refused key (401) says to check the key', async ({ page, openApp }) => {
	await openApp('/');
	await openExample(page, 'Text to image');
	const workflowUrl = page.url();
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
	await page.getByRole('button', { name: 'Forget the key of Demo (local emulator)' }).click();
	await expect(page.getByRole('article', { name: 'Profile Demo (local emulator)' })).toContainText('None saved');
	await page.goto(workflowUrl);
	const refusal = await runExpectingRefusal(page);
	await expect(refusal).toContainText('The API key was refused');
	await expect(refusal).toContainText('HTTP 401');
});

test('a proxy error page (5xx HTML) is named, with its status', async ({ page, openApp, control }) => {
	await openApp('/');
	await openExample(page, 'Text to image');
	await control.faults({ htmlErrorPage: true });
	const refusal = await runExpectingRefusal(page);
	await expect(refusal).toContainText('The server answered with an HTML page (HTTP 502) instead of JSON');
	await control.faults({ htmlErrorPage: false });
});

test('an execution error shows its type in words, the node and the message', async ({ page, openApp, emulator }) => {
	await workflowControl(emulator, 'timing', { stepMs: 5 });
	await openApp('/');
	await openExample(page, 'Text to image');
	const latent = page.getByRole('region', { name: 'Node Empty Latent Image' });
	await latent.getByRole('spinbutton', { name: 'width' }).fill('8192');
	await latent.getByRole('spinbutton', { name: 'height' }).fill('8192');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Text to image' }).click();
	const error = page.getByRole('alert', { name: 'Error' });
	await expect(error).toContainText('OOMError', { timeout: 20_000 });
	await expect(error).toContainText('The GPU ran out of memory');
	await expect(error).toContainText(/At node \d+/);
	await error.getByText('Details from the service').click();
	await expect(error.locator('pre')).not.toBeEmpty();
});
