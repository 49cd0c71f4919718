/**
 * The mask painter paints where the person points: strokes drawn over the image are compared, pixel
 * by pixel, with the alpha of the mask the emulator stored (painted pixels alpha 0, as LoadImage
 * makes MASK = 1 − alpha), for an image narrower than the row and one wider than the page.
 */
import sharp from 'sharp';
import { test, expect, openExample } from './fixtures';

const BRUSH_CSS_PX = 32; // the painter's default brush size
/** Where the two dots go, as fractions of the image's width and height. */
const DOTS = [
	[0.3, 0.4],
	[0.7, 0.65]
] as const;

for (const [width, height] of [
	[240, 160],
	[1600, 1000]
] as const) {
	test(`a painted mask lands where it was painted on a ${width}×${height} image @phone`, async ({
		page,
		openApp,
		emulator,
		control
	}, testInfo) => {
		test.setTimeout(90_000);
		const touch = testInfo.project.name === 'phone';
		await openApp('/');
		await openExample(page, 'Image edit');
		const node = page.getByRole('region', { name: 'Node Load Image' });
		const picture = await sharp({ create: { width, height, channels: 3, background: '#3a7' } })
			.png()
			.toBuffer();
		await node.locator('input[type=file]').first().setInputFiles({ name: 'leaf.png', mimeType: 'image/png', buffer: picture });
		const value = node.getByLabel(/^image: (image|file name) on the service$/);
		await expect(value).toHaveValue(/_leaf\.png$/);
		// Nothing on the page is wider than the screen (a hidden file input once was, on a phone). On a phone
		// the layout viewport grows to fit what is too wide, so innerWidth is compared with the screen's width too.
		const screenWidth = page.viewportSize()!.width;
		const fits = () => page.evaluate((w) => document.documentElement.scrollWidth <= innerWidth && innerWidth <= w, screenWidth);
		await expect.poll(fits).toBe(true);

		const paint = node.getByRole('button', { name: 'Paint a mask' });
		if (touch) await paint.tap();
		else await paint.click();
		const image = node.getByRole('img', { name: 'The input being masked' });
		const canvas = node.getByLabel('Paint the mask here');
		await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => c.width), { timeout: 15_000 }).toBe(width);
		// In the middle of the screen, as a person would paint: not under the sticky Run bar at the bottom.
		await image.evaluate((el) => el.scrollIntoView({ block: 'center' }));
		const shown = (await image.boundingBox())!;
		const over = (await canvas.boundingBox())!;
		for (const key of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(over[key] - shown[key]), `canvas ${key}`).toBeLessThan(1);

		for (const [fx, fy] of DOTS) {
			// Measured again for each dot: a tap can scroll the page on a phone.
			const box = (await image.boundingBox())!;
			expect(box.width).toBeCloseTo(shown.width, 0);
			const x = box.x + fx * box.width;
			const y = box.y + fy * box.height;
			if (touch) await page.touchscreen.tap(x, y);
			else {
				await page.mouse.move(x, y);
				await page.mouse.down();
				await page.mouse.up();
			}
		}
		await expect.poll(fits).toBe(true);
		await node.getByRole('button', { name: 'Use this mask' }).click();
		await expect.poll(async () => (await control.counters()).requests['POST /api/upload/mask']).toBe(1);
		await expect(value).toHaveValue(/_mask\.png$/);

		const view = await fetch(`${emulator.urls.workflow}/api/view?filename=${encodeURIComponent(await value.inputValue())}&type=input`, {
			headers: { 'X-API-Key': emulator.apiKey },
			redirect: 'manual'
		});
		const stored = await fetch(view.headers.get('location')!);
		const { data, info } = await sharp(new Uint8Array(await stored.arrayBuffer()))
			.raw()
			.toBuffer({ resolveWithObject: true });
		expect([info.width, info.height, info.channels]).toEqual([width, height, 4]);

		// The brush's radius in image pixels; a margin of 2 pixels either side of the edge for anti-aliasing.
		const radius = ((BRUSH_CSS_PX / 2) * width) / shown.width;
		const centres = DOTS.map(([fx, fy]) => [fx * width, fy * height] as const);
		let inside = 0;
		let wrong = 0;
		for (let y = 0; y < height; y++) {
			for (let x = 0; x < width; x++) {
				const d = Math.min(...centres.map(([cx, cy]) => Math.hypot(x + 0.5 - cx, y + 0.5 - cy)));
				const alpha = data[(y * width + x) * 4 + 3]!;
				if (d < radius - 2) {
					inside++;
					if (alpha > 8) wrong++;
				} else if (d > radius + 2 && alpha < 247) wrong++;
			}
		}
		expect(inside, 'pixels well inside the strokes').toBeGreaterThan(100);
		expect(wrong, 'pixels whose alpha disagrees with the strokes').toBe(0);
	});
}
