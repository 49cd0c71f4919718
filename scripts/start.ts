/**
 * `npm start`: the emulator of both services plus the built app on its own origin, wired together by
 * the runtime config file written next to the build. Flags and environment variables as for
 * `npm run emulator` (see emulator/cli-options.ts), plus `--app-port` / `RUNBOARD_APP_PORT`.
 */
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createEmulator, type Emulator } from '../emulator/index';
import { readCliOptions } from '../emulator/cli-options';
import { RUNTIME_CONFIG_PATH } from '../src/lib/core/protocol/runtime-config';
import { demoConfig, serveApp, type ServedApp } from './serve-app';

const DEFAULT_APP_PORT = 8710;
const buildDir = fileURLToPath(new URL('../build/', import.meta.url));
const configFile = buildDir + RUNTIME_CONFIG_PATH.slice(1);

function readAppPort(argv: string[], env: NodeJS.ProcessEnv): number {
	let raw = env['RUNBOARD_APP_PORT'];
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		if (arg === '--app-port') raw = argv[i + 1];
		else if (arg.startsWith('--app-port=')) raw = arg.slice('--app-port='.length);
	}
	if (raw === undefined || raw === '') return DEFAULT_APP_PORT;
	const port = Number(raw);
	if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--app-port/RUNBOARD_APP_PORT: "${raw}" is not a port number`);
	return port;
}

function fail(message: string): never {
	console.error(`npm start: ${message}`);
	process.exit(1);
}

if (!existsSync(buildDir + 'index.html')) {
	fail(`there is no built app in ${buildDir}. Run \`npm run build\` first (\`npm start\` does it for you).`);
}

let appPort: number;
let emulatorOptions: ReturnType<typeof readCliOptions>;
try {
	const argv = process.argv.slice(2);
	appPort = readAppPort(argv, process.env);
	emulatorOptions = readCliOptions(argv, process.env);
} catch (error) {
	fail((error as Error).message);
}

let emulator: Emulator;
try {
	emulator = await createEmulator(emulatorOptions);
} catch (error) {
	const code = (error as NodeJS.ErrnoException).code;
	fail(
		code === 'EADDRINUSE'
			? `an emulator port is already in use (${(error as Error).message}). Is another \`npm start\` or \`npm run emulator\` running? ` +
					'Stop it, or choose other ports with the RUNBOARD_*_PORT variables or --*-port flags (see emulator/README.md).'
			: `the emulator did not start: ${(error as Error).message}`
	);
}

// The demo's example workflows take a few seconds (20 steps of 150 ms), so a newcomer sees live
// progress and previews on the first run; tests start their own emulator and keep its fast pace.
const DEMO_STEP_MS = Number(process.env['RUNBOARD_DEMO_STEP_MS'] ?? 150);
try {
	const res = await fetch(`${emulator.urls.workflow}/__emulator/workflow/timing`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ stepMs: DEMO_STEP_MS })
	});
	if (!res.ok) console.warn(`The demo runs at the emulator's test pace: its timing route answered ${res.status}.`);
} catch (error) {
	console.warn(`The demo runs at the emulator's test pace: ${(error as Error).message}`);
}

const config = demoConfig(emulator, { v2: true });
let app: ServedApp;
try {
	await writeFile(configFile, JSON.stringify(config, null, '\t') + '\n');
	app = await serveApp({ root: buildDir, host: emulatorOptions.host, port: appPort });
} catch (error) {
	await emulator.close();
	await rm(configFile, { force: true });
	const hint = appPort === DEFAULT_APP_PORT ? ' Set RUNBOARD_APP_PORT or pass --app-port to use another port.' : '';
	fail(`the app server did not start: ${(error as Error).message}${hint}`);
}

const port = (url: string): string => new URL(url).port;
console.log(`
Runboard is running: open ${app.url}/

  ${port(app.url)}  the app
  ${port(emulator.urls.workflow)}  workflow service (emulated; its v2 jobs API under /api/v2)
  ${port(emulator.urls.router)}  model router (emulated)
  ${port(emulator.urls.storage)}  storage that output links point at
  ${port(emulator.urls.cdn)}  a provider's file host (no CORS)
  ${port(emulator.urls.deployment)}  a per-deployment v2 endpoint (key ${emulator.deploymentKey})
  ${port(emulator.urls.selfHosted)}  a self-hosted v2 proxy (no key)

The app's two demo profiles use the key ${emulator.apiKey}; nothing leaves this machine.
Stop with Ctrl+C.`);

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
	if (stopping) {
		console.error(`npm start: ${signal} again, exiting without a clean shutdown.`);
		process.exit(1);
	}
	stopping = true;
	console.log(`\nnpm start: ${signal}, shutting down.`);
	// The config names loopback URLs of this run only; it must not linger in a build someone hosts.
	const results = await Promise.allSettled([app.close(), emulator.close(), rm(configFile, { force: true })]);
	const failures = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
	for (const failure of failures) console.error('npm start: shutdown step failed:', failure.reason);
	process.exit(failures.length === 0 ? 0 : 1);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, (received) => void stop(received));
