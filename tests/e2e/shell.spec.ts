import { test, expect, hasHorizontalScroll } from './fixtures';

const SECTIONS = [
	{ link: 'Runs', path: '/', heading: 'Runs' },
	{ link: 'Workflows', path: '/workflows', heading: 'Workflows' },
	{ link: 'Models', path: '/models', heading: 'Models' },
	{ link: 'Settings', path: '/settings', heading: 'Settings' }
];

test.describe('on a phone (390x844)', () => {
	test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

	test('shows one column with the navigation at the bottom and no sideways scroll', async ({ page, openApp }) => {
		await openApp('/');
		const nav = page.getByRole('navigation', { name: 'Main' });
		const box = await nav.boundingBox();
		expect(box, 'navigation is laid out').not.toBeNull();
		expect(box!.y + box!.height).toBeGreaterThan(800);
		expect(box!.width).toBeGreaterThanOrEqual(389);
		for (const section of SECTIONS) {
			await nav.getByRole('link', { name: section.link }).tap();
			await expect(page).toHaveURL(new RegExp(`${section.path}$`));
			await expect(page.getByRole('heading', { level: 1, name: section.heading })).toBeVisible();
			expect(await hasHorizontalScroll(page), `${section.path} scrolls sideways`).toBe(false);
		}
	});
});

test.describe('on a desk (1280x800)', () => {
	test('shows the navigation as a side column and no sideways scroll', async ({ page, openApp }) => {
		await openApp('/');
		const nav = page.getByRole('navigation', { name: 'Main' });
		const box = await nav.boundingBox();
		expect(box!.x).toBe(0);
		expect(box!.height).toBeGreaterThanOrEqual(799);
		expect(box!.width).toBeLessThan(300);
		for (const section of SECTIONS) {
			await nav.getByRole('link', { name: section.link }).click();
			await expect(page.getByRole('heading', { level: 1, name: section.heading })).toBeVisible();
			await expect(nav.getByRole('link', { name: section.link })).toHaveAttribute('aria-current', 'page');
			expect(await hasHorizontalScroll(page), `${section.path} scrolls sideways`).toBe(false);
		}
	});

	test('every section is reachable by keyboard', async ({ page, openApp }) => {
		await openApp('/');
		await page.keyboard.press('Tab');
		await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
		const reached = new Set<string>();
		for (let i = 0; i < 12; i++) {
			await page.keyboard.press('Tab');
			const name = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
			reached.add(name);
		}
		for (const section of SECTIONS) expect([...reached]).toContain(section.link);
		await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).focus();
		await page.keyboard.press('Enter');
		await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
	});

	test('deep links open the right section on a fresh load', async ({ page, openApp }) => {
		await openApp('/settings');
		await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
	});

	test('follows the system theme and can be switched in Settings', async ({ page, openApp }) => {
		await page.emulateMedia({ colorScheme: 'dark' });
		await openApp('/settings');
		const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
		expect(await background()).toBe('rgb(11, 15, 23)');
		await page.getByRole('radio', { name: 'Light' }).check();
		expect(await background()).toBe('rgb(246, 247, 251)');
		await page.reload();
		await expect(page.getByRole('radio', { name: 'Light' })).toBeChecked();
		expect(await background()).toBe('rgb(246, 247, 251)');
		await page.getByRole('radio', { name: 'Follow the system' }).check();
		expect(await background()).toBe('rgb(11, 15, 23)');
	});
});
