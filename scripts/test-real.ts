/**
 * `npm run test:real`: the tests of tests/real against real servers, never in CI. Contract tests
 * (vitest) read the servers' own answers; browser journeys (Playwright, against the built app) check
 * the words on screen. The servers are named by the environment:
 * - RUNBOARD_COMFYUI_URL: a local ComfyUI; RUNBOARD_COMFYUI_STOP / RUNBOARD_COMFYUI_START: shell commands
 *   that stop it and start it again (for the restart journey; it is skipped without them);
 * - RUNBOARD_PROXY_URL: a self-hosted v2 proxy; RUNBOARD_PROXY_COMFYUI_URL: the ComfyUI behind it (where an
 *   interrupt works); RUNBOARD_PROXY_COMFYUI_STOP / _START: stop and start that ComfyUI (upstream down);
 * - RUNBOARD_REAL_APP_ORIGIN: where the journeys serve the app, the origin the proxy allows (its --cors),
 *   http://127.0.0.1:8720 when unset.
 * Without either server it says so in one line and passes: CI has none. `npm run test:real -- contract`
 * or `-- journeys` runs one part; further arguments go to that part's runner.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!process.env['RUNBOARD_COMFYUI_URL'] && !process.env['RUNBOARD_PROXY_URL']) {
	console.log('test:real skipped: set RUNBOARD_COMFYUI_URL and/or RUNBOARD_PROXY_URL (see ../shared/real-servers/README.md).');
	process.exit(0);
}

const [first, ...rest] = process.argv.slice(2);
const only = first === 'contract' || first === 'journeys' ? first : null;
const extra = only ? rest : process.argv.slice(2);

const parts = [
	{ name: 'contract', command: ['vitest', 'run', '-c', 'vitest.real.config.ts'] },
	{ name: 'journeys', command: ['playwright', 'test', '-c', 'playwright.real.config.ts'] }
].filter((part) => only === null || part.name === only);

if (parts.some((part) => part.name === 'journeys') && !existsSync('build/index.html')) {
	console.error('test:real: the journeys run against the built app: run `npm run build` first.');
	process.exit(1);
}

let failed = false;
for (const part of parts) {
	const started = Date.now();
	const run = spawnSync('npx', [...part.command, ...extra], { stdio: 'inherit' });
	console.log(`test:real ${part.name}: ${run.status === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
	failed ||= run.status !== 0;
}
process.exit(failed ? 1 : 0);
