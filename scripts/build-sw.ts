/** Second half of `npm run build`: after `vite build` has written `build/`, add `build/sw.js`. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateServiceWorker } from './sw/generate-service-worker';

const buildDir = fileURLToPath(new URL('../build/', import.meta.url));

if (!existsSync(`${buildDir}index.html`)) {
	console.error(`build-sw: ${buildDir}index.html is missing. Run \`vite build\` first (\`npm run build\` does both).`);
	process.exit(1);
}

const { count, size, warnings } = await generateServiceWorker(buildDir);
for (const warning of warnings) console.error(`build-sw: ${warning}`);
if (warnings.length > 0) {
	console.error('build-sw: the service worker would not precache the whole app shell; fix the warnings above.');
	process.exit(1);
}
console.log(`build-sw: build/sw.js precaches ${count} files, ${(size / 1024).toFixed(1)} KiB.`);
