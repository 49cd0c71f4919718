/** Helpers for the model-runs end-to-end tests: the router's own control routes and a bare catalog walk. */
import { expect, type Page } from '@playwright/test';
import type { Emulator } from '../../emulator/index';

export async function routerControl(emulator: Emulator, path: string, body: unknown): Promise<unknown> {
	const res = await fetch(`${emulator.urls.router}/__emulator/router/${path}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body)
	});
	if (!res.ok) throw new Error(`router control ${path}: HTTP ${res.status} ${await res.text()}`);
	return res.json();
}

/**
 * Holds runs at the router's provider once dispatched (`{}` every run, `{model}` that model's), so a
 * test acts while a run is in flight instead of betting on how slow it is; `null` lets them all go.
 */
export async function holdProvider(emulator: Emulator, hold: { model?: string } | null): Promise<void> {
	await routerControl(emulator, 'settings', { holdProvider: hold });
}

/** Resolves once at least `count` runs are held at the provider. */
export async function untilHeld(emulator: Emulator, count = 1): Promise<void> {
	await expect
		.poll(async () => ((await (await fetch(`${emulator.urls.router}/__emulator/router/settings`)).json()) as { held: number }).held, {
			message: `${count} run(s) held at the provider`
		})
		.toBeGreaterThanOrEqual(count);
}

/** Lets held runs go on (the hold stays set for later runs). */
export async function releaseProvider(emulator: Emulator, body: { model?: string; count?: number } = {}): Promise<void> {
	await routerControl(emulator, 'release', body);
}

export async function sharedFaults(emulator: Emulator, body: Record<string, unknown>): Promise<void> {
	const res = await fetch(`${emulator.urls.router}/__emulator/faults`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body)
	});
	if (!res.ok) throw new Error(`faults: HTTP ${res.status}`);
}

/** Every model id of the emulator's catalog, walked from Node with the largest page size. */
export async function catalogIds(emulator: Emulator): Promise<string[]> {
	const ids: string[] = [];
	let cursor: string | undefined;
	for (;;) {
		const q = new URLSearchParams({ limit: '100' });
		if (cursor) q.set('cursor', cursor);
		const res = await fetch(`${emulator.urls.router}/v2/models?${q}`, { headers: { 'X-API-Key': emulator.apiKey } });
		const page = (await res.json()) as { data: Array<{ id: string }>; has_more: boolean; next_cursor?: string };
		ids.push(...page.data.map((m) => m.id));
		if (!page.has_more) return ids;
		cursor = page.next_cursor;
	}
}

export async function counters(
	emulator: Emulator
): Promise<{ requests: Record<string, number>; dispatches: Record<string, number>; charges: Record<string, number> }> {
	return (await (await fetch(`${emulator.urls.router}/__emulator/counters`)).json()) as never;
}

/** The newest run on a model's page (the list of "Runs of this model" puts it first). */
export function latestModelRun(page: Page) {
	return page.getByRole('region', { name: 'Runs of this model' }).getByRole('article').first();
}
