/** Shared setup of the model benchmarks: an emulator, the built app served against it, and Chromium. */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';
import { createEmulator, type Emulator } from '../emulator/index';
import { demoConfig, serveApp, type ServedApp } from '../scripts/serve-app';
import { CHROMIUM_ARGS, chromiumExecutable } from '../tests/browser';

export interface BenchApp {
	emulator: Emulator;
	app: ServedApp;
	browser: Browser;
	close(): Promise<void>;
}

export async function startBenchApp(): Promise<BenchApp> {
	if (!existsSync('build/index.html')) throw new Error('Run `npm run build` first: the benchmark drives the built app.');
	const emulator = await createEmulator({ ports: { workflow: 0, router: 0, storage: 0, cdn: 0, deployment: 0, selfHosted: 0 } });
	const app = await serveApp({
		root: 'build',
		config: demoConfig(emulator)
	});
	const executablePath = chromiumExecutable();
	const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: CHROMIUM_ARGS });
	return {
		emulator,
		app,
		browser,
		close: async () => {
			await browser.close();
			await app.close();
			await emulator.close();
		}
	};
}

export function median(values: number[]): number {
	const s = [...values].sort((a, b) => a - b);
	return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export function line(name: string, ms: number, extra = ''): void {
	console.log(`${name.padEnd(52)} ${ms.toFixed(1).padStart(8)} ms  ${extra}`);
}
