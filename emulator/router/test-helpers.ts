/** Helpers for router tests: one emulator per test file, real HTTP, control routes. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createEmulator, type Emulator } from '../index';

export async function startEmulator(): Promise<Emulator> {
	return createEmulator({ ports: { workflow: 0, router: 0, storage: 0, cdn: 0, deployment: 0, selfHosted: 0 }, catalogLimitCases: true });
}

/**
 * One emulator for the calling test file: started before its tests, closed after them, and (unless
 * told otherwise) reset before each test, then given `settings`. Its `emu` is there once tests run.
 */
export function useRouterEmulator({
	resetEachTest = true,
	settings
}: { resetEachTest?: boolean; settings?: Record<string, unknown> } = {}): RouterClient {
	const api = new RouterClient();
	beforeAll(async () => {
		api.emu = await startEmulator();
	});
	afterAll(async () => api.emu.close());
	if (resetEachTest)
		beforeEach(async () => {
			await api.control('/reset');
			if (settings) await api.control('/router/settings', settings);
		});
	return api;
}

export class RouterClient {
	emu!: Emulator;

	get base(): string {
		return this.emu.urls.router;
	}

	headers(extra: Record<string, string> = {}): Record<string, string> {
		return { 'X-API-Key': this.emu.apiKey, ...extra };
	}

	get(path: string, headers: Record<string, string> = {}): Promise<Response> {
		return fetch(`${this.base}${path}`, { headers: this.headers(headers) });
	}

	post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
		return fetch(`${this.base}${path}`, {
			method: 'POST',
			headers: this.headers({ 'Content-Type': 'application/json', ...headers }),
			body: typeof body === 'string' ? body : JSON.stringify(body)
		});
	}

	put(path: string, headers: Record<string, string> = {}): Promise<Response> {
		return fetch(`${this.base}${path}`, { method: 'PUT', headers: this.headers(headers) });
	}

	async control(path: string, body: unknown = {}): Promise<unknown> {
		const res = await fetch(`${this.base}/__emulator${path}`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(body)
		});
		if (!res.ok) throw new Error(`control ${path}: ${res.status} ${await res.text()}`);
		return res.json();
	}

	/** How many runs the provider hold keeps now. */
	async held(): Promise<number> {
		return ((await (await fetch(`${this.base}/__emulator/router/settings`)).json()) as { held: number }).held;
	}

	/** Resolves once at least `count` runs are held at the provider. */
	async untilHeld(count = 1): Promise<void> {
		await eventually(async () => ((await this.held()) >= count ? true : undefined));
	}

	async counters(): Promise<{ dispatches: Record<string, number>; charges: Record<string, number> }> {
		return (await (await fetch(`${this.base}/__emulator/counters`)).json()) as {
			dispatches: Record<string, number>;
			charges: Record<string, number>;
		};
	}
}

/** Resolves once `check` passes, polling; fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000, everyMs = 25): Promise<T> {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > until) throw new Error('eventually: timed out');
		await new Promise((r) => setTimeout(r, everyMs));
	}
}
