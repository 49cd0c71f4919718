/**
 * `npm run test:real`: the contract tests of tests/real against real servers named by
 * RUNBOARD_COMFYUI_URL (a local ComfyUI) and RUNBOARD_PROXY_URL (a self-hosted v2 proxy; the ComfyUI
 * behind it: RUNBOARD_PROXY_COMFYUI_URL). Without them it says so in one line and passes: CI has none.
 */
import { spawnSync } from 'node:child_process';

if (!process.env['RUNBOARD_COMFYUI_URL'] && !process.env['RUNBOARD_PROXY_URL']) {
	console.log('test:real skipped: set RUNBOARD_COMFYUI_URL and/or RUNBOARD_PROXY_URL (see ../shared/real-servers/README.md).');
	process.exit(0);
}
const run = spawnSync('npx', ['vitest', 'run', '-c', 'vitest.real.config.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
