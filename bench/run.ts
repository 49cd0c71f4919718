/**
 * `npm run bench`: runs every `bench/*.bench.ts` in its own process, one after another, so one
 * benchmark's memory and timers never disturb another's. Each prints its own figures and their
 * ratio to a baseline measured in the same run. `npm run bench -- name` runs the matching ones.
 */
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv.slice(2);
const files = readdirSync(here)
	.filter((f) => f.endsWith('.bench.ts'))
	.filter((f) => filter.length === 0 || filter.some((w) => f.includes(w)))
	.sort();

let failed = 0;
for (const file of files) {
	console.log(`\n=== ${file} ===`);
	const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: 'inherit' });
	if (result.status !== 0) failed++;
}
if (files.length === 0) console.log('no benchmark matched');
process.exit(failed === 0 ? 0 : 1);
