/**
 * The first view's JavaScript budget. The first view's own code is what `/` cannot show itself
 * without: SvelteKit's entry and app, the root layout and the `/` page with their static imports (from
 * the build's Vite manifest), summed as gzip level 9. Target: at most 56.4 KB, what it was before the
 * code moved into feature folders (30 KB of it is Svelte's runtime and SvelteKit's client). Ratio: to the target.
 * Then the built app is opened at `/` in Chromium (service worker blocked) and everything it fetches
 * until the network is idle is listed too: the worker and the Main menu's eager route preloads come
 * after the first view and are outside the budget, and the graph view's chunk must not be there at all
 * (it loads when the graph tab opens).
 */
import { gzipSync } from 'node:zlib';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoConfig, serveApp } from '../scripts/serve-app';
import { launchChromium, startEmulator } from './support/app-run';
import { ratio, verdict } from './support/stats';
import { watchdog } from './support/watchdog';
import { report } from './support/report';
import { benchContext } from './support/wait';

const TARGET_KB = 56.4;
const gz = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;

interface ManifestChunk {
	file: string;
	imports?: string[];
}

/** The gzip size of the first view's own code, from the build's Vite manifest. */
function firstViewBytes(): { bytes: number; files: string[] } {
	const manifest = JSON.parse(readFileSync('.svelte-kit/output/client/.vite/manifest.json', 'utf8')) as Record<string, ManifestChunk>;
	const nodes = '.svelte-kit/generated/client-optimized/nodes/';
	const app = readFileSync('.svelte-kit/generated/client-optimized/app.js', 'utf8');
	const home = /"\/": \[(\d+)\]/.exec(app)?.[1];
	if (!home) throw new Error('the route / is not in the built app');
	const seen = new Set<string>();
	const todo = [
		'node_modules/@sveltejs/kit/src/runtime/client/entry.js',
		'.svelte-kit/generated/client-optimized/app.js',
		`${nodes}0.js`,
		`${nodes}${home}.js`
	];
	while (todo.length > 0) {
		const key = todo.pop()!;
		if (seen.has(key)) continue;
		const chunk = manifest[key];
		if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
		seen.add(key);
		todo.push(...(chunk.imports ?? []));
	}
	const files = [...seen].map((k) => manifest[k]!.file);
	return { bytes: files.reduce((sum, f) => sum + gz(readFileSync(join('build', f))), 0), files };
}

watchdog(2);
const emulator = await startEmulator();
const app = await serveApp({ root: 'build', config: demoConfig(emulator) });
const browser = await launchChromium();
try {
	const context = await benchContext(browser, { serviceWorkers: 'block' });
	const page = await context.newPage();
	const scripts = new Map<string, number>();
	const pending: Array<Promise<void>> = [];
	context.on('response', (response) => {
		const type = response.request().resourceType();
		const url = response.url();
		if (type !== 'script' && !url.endsWith('.js')) return;
		pending.push(
			response.body().then(
				(body) => void scripts.set(url, gz(body)),
				(error: unknown) => console.warn(`  could not read ${url}: ${String(error)}`)
			)
		);
	});
	await page.goto(`${app.url}/`);
	await page.getByRole('navigation', { name: 'Main' }).waitFor();
	await page.getByRole('heading', { name: 'No runs yet' }).waitFor({ timeout: 20_000 });
	await page.waitForLoadState('networkidle');
	await Promise.all(pending);

	const own = firstViewBytes();
	const kb = own.bytes / 1024;
	const fetched = [...scripts.values()].reduce((a, b) => a + b, 0) / 1024;
	const worker = [...scripts].filter(([u]) => u.includes('/workers/')).reduce((a, [, b]) => a + b, 0) / 1024;
	console.log(`first view (/): ${own.files.length} files of its own; the browser fetched ${scripts.size} scripts until idle`);
	console.log(
		`  first-view JavaScript ${kb.toFixed(1)} KB gzip   (target <= ${TARGET_KB} KB: ${verdict(kb <= TARGET_KB)}) ratio to target ${ratio(kb, TARGET_KB)}`
	);
	console.log(
		`  fetched until idle     ${fetched.toFixed(1)} KB gzip   (the worker ${worker.toFixed(1)} KB, the Main menu's eager route preloads the rest) ratio to the first view ${ratio(fetched, kb)}`
	);

	// The graph view's chunk: found by what only it contains; it must not be in the first view.
	const chunks = join('build', '_app', 'immutable');
	const files = (dir: string): string[] =>
		readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
			d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.js') ? [join(dir, d.name)] : []
		);
	const graphChunks = files(chunks).filter((f) => readFileSync(f, 'utf8').includes('Drawing the graph'));
	for (const f of graphChunks) {
		const loaded = [...scripts.keys()].some((u) => u.endsWith(f.slice('build'.length)));
		console.log(
			`  graph view chunk ${f.slice('build'.length)}: ${(gz(readFileSync(f)) / 1024).toFixed(1)} KB gzip, loaded by the first view: ${loaded ? 'YES (budget broken)' : 'no'}`
		);
		report({
			name: `graph view chunk ${f.slice(f.lastIndexOf('/') + 1)} kept out of the first view`,
			figure: gz(readFileSync(f)) / 1024,
			unit: 'KB gzip',
			target: 'not loaded by /',
			met: !loaded
		});
	}
	report({
		name: 'first-view JavaScript (baseline: the target)',
		figure: kb,
		unit: 'KB gzip',
		baseline: TARGET_KB,
		target: `<= ${TARGET_KB} KB`,
		met: kb <= TARGET_KB
	});
	report({ name: 'JavaScript fetched until idle (baseline: the first view)', figure: fetched, unit: 'KB gzip', baseline: kb });
	await context.close();
} finally {
	await browser.close();
	await app.close();
	await emulator.close();
}
process.exit(0);
