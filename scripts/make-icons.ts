/**
 * Renders the app icons from the two hand-drawn SVGs in static/icons/. The PNGs are committed, so a
 * build needs no image step: rerun `npx tsx scripts/make-icons.ts` after editing an SVG.
 *   icon.svg           rounded square with transparent corners: `purpose: any` icons and favicon.svg
 *   icon-maskable.svg  full bleed, mark inside the safe zone: maskable icons and the apple-touch-icon
 *                      (iOS rounds the corners itself and paints transparency black)
 */
import { copyFile, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const staticDir = fileURLToPath(new URL('../static/', import.meta.url));
const SVG_SIZE = 512;

const OUTPUTS = [
	// The tab icon: Chromium fetches and decodes it again after every in-app navigation, so it is small.
	{ source: 'icons/icon.svg', size: 32, dest: 'icons/favicon-32.png' },
	{ source: 'icons/icon.svg', size: 192, dest: 'icons/icon-192.png' },
	{ source: 'icons/icon.svg', size: 512, dest: 'icons/icon-512.png' },
	{ source: 'icons/icon-maskable.svg', size: 192, dest: 'icons/maskable-192.png' },
	{ source: 'icons/icon-maskable.svg', size: 512, dest: 'icons/maskable-512.png' },
	{ source: 'icons/icon-maskable.svg', size: 180, dest: 'icons/apple-touch-icon.png' }
] as const;

for (const { source, size, dest } of OUTPUTS) {
	const svg = await readFile(staticDir + source);
	// Rasterise at the target size (72 dpi is 1 SVG unit per pixel) instead of scaling a bitmap.
	const info = await sharp(svg, { density: (72 * size) / SVG_SIZE })
		.resize(size, size)
		.png({ compressionLevel: 9 })
		.toFile(staticDir + dest);
	console.log(`make-icons: static/${dest} ${info.width}x${info.height}, ${info.size} bytes`);
}

await copyFile(staticDir + 'icons/icon.svg', staticDir + 'favicon.svg');
console.log('make-icons: static/favicon.svg (copy of icons/icon.svg)');
