import { test, expect } from './fixtures';

// This file's journeys need the service worker, which the suite blocks by default (decision 0058).
test.use({ serviceWorkers: 'allow' });

test('the manifest makes the app installable', async ({ request, app }) => {
	const res = await request.get(`${app.url}/manifest.webmanifest`);
	expect(res.ok()).toBe(true);
	expect(res.headers()['content-type']).toContain('application/manifest+json');
	const manifest = (await res.json()) as {
		name: string;
		short_name: string;
		start_url: string;
		display: string;
		theme_color: string;
		icons: Array<{ src: string; sizes: string; purpose?: string }>;
	};
	expect(manifest.name).toBe('Runboard');
	expect(manifest.short_name).toBeTruthy();
	expect(manifest.start_url).toBe('/');
	expect(manifest.display).toBe('standalone');
	expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
	for (const size of ['192x192', '512x512']) {
		expect(manifest.icons.some((i) => i.sizes === size && (i.purpose ?? 'any').includes('any'))).toBe(true);
		expect(manifest.icons.some((i) => i.sizes === size && i.purpose?.includes('maskable'))).toBe(true);
	}
	for (const icon of manifest.icons) {
		const img = await request.get(new URL(icon.src, app.url).toString());
		expect(img.ok(), icon.src).toBe(true);
		expect(img.headers()['content-type']).toBe('image/png');
	}
});

test('the service worker takes control and the shell opens offline', async ({ page, context, openApp }) => {
	await openApp('/');
	await expect(page.getByRole('status').filter({ hasText: 'Ready to work offline' })).toBeVisible();
	await page.reload();
	await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

	await context.setOffline(true);
	await page.reload();
	await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeVisible();
	await page.goto(page.url().replace(/\/$/, '') + '/settings');
	await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
	await expect(page.getByRole('article', { name: 'Profile Demo (local emulator)' })).toBeVisible();
	await expect(page.getByText('The app shell is stored on this device')).toBeVisible();
	await context.setOffline(false);
});

test('the app is served with a strict Content-Security-Policy header', async ({ request, app }) => {
	const res = await request.get(`${app.url}/settings`);
	const csp = res.headers()['content-security-policy'] ?? '';
	expect(csp).toContain("frame-ancestors 'none'");
	expect(csp).toContain("'wasm-unsafe-eval'");
	expect(csp).not.toContain("'unsafe-eval'");
	expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
});
