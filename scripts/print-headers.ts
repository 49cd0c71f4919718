/**
 * Prints the response headers a host must send for the current build, exactly as `npm start` sends
 * them: the CSP carries the hash of this build's inline boot script, so regenerate after every build.
 * Usage: `npx tsx scripts/print-headers.ts [build-dir]` (see docs/HOSTING.md).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { headerCsp, readMetaCsp } from './serve/page-csp';
import { CACHE_IMMUTABLE, CACHE_REVALIDATE, securityHeaders } from './serve/response-headers';

const buildDir = resolve(process.argv[2] ?? 'build');
const indexPath = resolve(buildDir, 'index.html');
const html = await readFile(indexPath, 'utf8').catch(() => {
	console.error(`print-headers: cannot read ${indexPath}. Run \`npm run build\` first, or pass the build directory.`);
	process.exit(1);
});
const metaPolicy = readMetaCsp(html);
if (metaPolicy === undefined) {
	console.error(`print-headers: ${indexPath} has no CSP meta tag; check kit.csp in svelte.config.js.`);
	process.exit(1);
}

console.log('# On every response (HTML, scripts, workers, sw.js, errors):');
for (const [name, value] of Object.entries(securityHeaders(headerCsp(metaPolicy)))) console.log(`${name}: ${value}`);
console.log(`\n# /_app/immutable/*:\nCache-Control: ${CACHE_IMMUTABLE}`);
console.log(`\n# Everything else (index.html, sw.js, manifest.webmanifest, icons, the SPA fallback):\nCache-Control: ${CACHE_REVALIDATE}`);
