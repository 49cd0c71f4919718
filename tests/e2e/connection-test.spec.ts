import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { test, expect, untilShellCached } from './fixtures';

/** Adds a Cloud profile through the form and returns its card. */
async function addProfile(page: Page, name: string, workflowUrl: string, routerUrl: string, key: string) {
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: /Cloud/ }).check();
	await form.getByLabel('Name').fill(name);
	await form.getByLabel('Workflow service URL').fill(workflowUrl);
	await form.getByLabel('Model router URL').fill(routerUrl);
	if (key) await form.getByLabel('API key', { exact: true }).fill(key);
	await form.getByRole('button', { name: 'Save profile' }).click();
	const card = page.getByRole('article', { name: `Profile ${name}` });
	await expect(card).toBeVisible();
	return card;
}

async function runTest(page: Page, name: string) {
	const card = page.getByRole('article', { name: `Profile ${name}` });
	await card.getByRole('button', { name: `Test connection of ${name}` }).click();
	const report = card.getByRole('region', { name: `Connection test of ${name}` });
	await expect(report).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
	return report;
}

function listen(server: Server): Promise<string> {
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
		})
	);
}

test('a server that is down is reported as no answer', async ({ page, openApp }) => {
	const closed = createServer();
	const url = await listen(closed);
	await new Promise<void>((resolve) => closed.close(() => resolve()));
	await openApp('/settings');
	await addProfile(page, 'Gone', url, '', 'some-key');
	const report = await runTest(page, 'Gone');
	await expect(report).toContainText(`No answer from ${url}: the server is down, the address is wrong, or the network is offline.`);
	// A workflow server never sends request ids: their absence is not news (only the router promises one).
	await expect(report).not.toContainText('request id');
});

test('a wrong key is explained, with status and request id, and the socket is not tried', async ({ page, openApp, emulator }) => {
	await openApp('/settings');
	await addProfile(page, 'Wrong key', emulator.urls.workflow, emulator.urls.router, 'not-the-key');
	const report = await runTest(page, 'Wrong key');
	await expect(report).toContainText('Node list: failed');
	await expect(report).toContainText('The API key was refused. Check it in Settings');
	await expect(report).toContainText('HTTP 401');
	await expect(report).toContainText('Live updates: not tried');
	await expect(report).toContainText(/Model catalog: failed[\s\S]*HTTP 401 · type unauthorized · request id [0-9a-f-]{36}/);
});

test('an HTML error page where JSON was expected is named as such', async ({ page, openApp, control }) => {
	await openApp('/settings');
	await control.faults({ htmlErrorPage: true });
	const report = await runTest(page, 'Demo (local emulator)');
	await expect(report).toContainText('The server answered with an HTML page (HTTP 502) instead of JSON');
	await expect(report).toContainText('502 Bad Gateway');
});

test('truncated JSON is reported, not swallowed', async ({ page, openApp, control }) => {
	await openApp('/settings');
	await control.faults({ truncatedJson: true });
	const report = await runTest(page, 'Demo (local emulator)');
	await expect(report).toContainText('is not valid JSON; it may have been cut off');
});

test('a router that is not enabled for the account says so', async ({ page, openApp, control }) => {
	await openApp('/settings');
	await control.scenario('router-not-enabled');
	const report = await runTest(page, 'Demo (local emulator)');
	await expect(report).toContainText('Node list: OK');
	await expect(report).toContainText('The model router is not enabled for this account yet');
	await expect(report).toContainText('type not_enabled');
});

test('a server without CORS headers is told apart from a server that is down', async ({ page, openApp }) => {
	const noCors = createServer((_req, res) => {
		res.writeHead(200, { 'Content-Type': 'application/json' });
		res.end('{}');
	});
	const url = await listen(noCors);
	try {
		await openApp('/settings');
		await addProfile(page, 'No CORS', url, '', '');
		const report = await runTest(page, 'No CORS');
		await expect(report).toContainText(`${url} answered, but its CORS headers do not allow this app`);
		await expect(report).toContainText('--enable-cors-header');
	} finally {
		await new Promise<void>((resolve) => noCors.close(() => resolve()));
	}
});

test('a refused socket with a working key over HTTP is explained', async ({ page, openApp, control }) => {
	await openApp('/settings');
	await control.faults({ refuseSocketsForSeconds: 60 });
	const report = await runTest(page, 'Demo (local emulator)');
	await expect(report).toContainText('Node list: OK');
	await expect(report).toContainText('Live updates were refused');
	await expect(report).toContainText('the key works for everything else');
	await expect(report).not.toContainText('rb-demo-key');
});

test.describe('with the service worker', () => {
	// This journey needs the service worker, which the suite blocks by default (decision 0058).
	test.use({ serviceWorkers: 'allow' });

	test('a profile is tested when it is saved, and saved offline it says it could not be tested', async ({ page, openApp, emulator }) => {
		await openApp('/settings');
		const card = await addProfile(page, 'Saved and tested', emulator.urls.workflow, emulator.urls.router, 'not-the-key');
		// No press on Test: the report comes by itself.
		const report = card.getByRole('region', { name: 'Connection test of Saved and tested' });
		await expect(report).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
		await expect(report).toContainText('The API key was refused.');
		await expect(page.getByRole('status').filter({ hasText: 'Saved profile Saved and tested.' })).toContainText(
			'The connection test found',
			{
				timeout: 20_000
			}
		);

		await untilShellCached(page);
		await page.context().setOffline(true);
		const offline = await addProfile(page, 'Saved offline', emulator.urls.workflow, emulator.urls.router, 'some-key');
		await expect(offline.getByRole('region', { name: 'Connection test of Saved offline' })).toContainText(
			'Not tested: this device is offline.'
		);
		await expect(page.getByRole('status').filter({ hasText: 'Saved profile Saved offline.' })).toContainText('could not be tested');
		await page.context().setOffline(false);
	});
});
