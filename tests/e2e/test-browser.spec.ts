import { test, expect } from './fixtures';

// The suite's CPU budget depends on it (decision 0059): a newer Chromium may rename the features.
test('the test browser runs no browser-interface pages beside the app', async ({ page, openApp, browser }) => {
	await openApp('/');
	const session = await browser.newBrowserCDPSession();
	const { targetInfos } = await session.send('Target.getTargets');
	expect(targetInfos.filter((target) => target.url.startsWith('chrome://')).map((target) => target.url)).toEqual([]);
	await session.detach();
});
