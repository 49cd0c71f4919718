import { describe, expect, it } from 'vitest';
import { useRouterEmulator } from './test-helpers';
import { counterKey } from './idempotency';

const api = useRouterEmulator({ settings: { providerMs: 20 } });

const WS = 'ws:ws_demo';
const INPUT = { prompt: 'a heron', aspect_ratio: '1:1' };

async function settings(): Promise<{ settings: { holdProvider: unknown }; held: number; heldRuns: Array<{ id: string; model: string }> }> {
	return (await (await fetch(`${api.base}/__emulator/router/settings`)).json()) as never;
}

/** Whether a response has come by now. */
async function answered(p: Promise<Response>): Promise<boolean> {
	return Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 50))]);
}

describe('provider hold (control routes)', () => {
	it('holds a synchronous run at the provider until released, and says how many runs are held', async () => {
		await api.control('/router/settings', { holdProvider: {} });
		const run = api.post('/v2/models/stratus/sd-3', INPUT, { 'Idempotency-Key': 'h1' });
		await api.untilHeld();
		const now = await settings();
		expect(now.settings.holdProvider).toEqual({ model: null });
		expect(now.held).toBe(1);
		expect(now.heldRuns).toEqual([{ id: expect.stringMatching(/^[0-9a-f-]{36}$/), model: 'stratus/sd-3', heldMs: expect.any(Number) }]);
		// Dispatched, not answered: the key's call is running.
		expect((await api.counters()).dispatches[counterKey(WS, 'h1')]).toBe(1);
		expect(await answered(run)).toBe(false);
		expect(await api.control('/router/release')).toEqual({ released: 1, held: 0 });
		expect((await run).status).toBe(200);
		expect((await api.counters()).charges[counterKey(WS, 'h1')]).toBe(1);
		// The hold stays set for the next run.
		const next = api.post('/v2/models/stratus/sd-3', { ...INPUT, prompt: 'next' });
		await api.untilHeld();
		await api.control('/router/settings', { holdProvider: null });
		expect((await next).status).toBe(200);
	});

	it("holds only one model's runs when told, and releases by model and count, oldest first", async () => {
		await api.control('/router/settings', { holdProvider: { model: 'quill/quill-3' } });
		expect((await api.post('/v2/models/quill/quill-mini', { prompt: 'free' })).status).toBe(200);
		const a = api.post('/v2/models/quill/quill-3', { prompt: 'a' });
		await api.untilHeld(1);
		const b = api.post('/v2/models/quill/quill-3', { prompt: 'b' });
		await api.untilHeld(2);
		expect(await api.control('/router/release', { model: 'quill/quill-mini' })).toEqual({ released: 0, held: 2 });
		expect(await api.control('/router/release', { count: 1 })).toEqual({ released: 1, held: 1 });
		expect((await a).status).toBe(200);
		expect(await answered(b)).toBe(false);
		expect(await api.control('/router/release', { model: 'quill/quill-3' })).toEqual({ released: 1, held: 0 });
		expect((await b).status).toBe(200);
	});

	it('ends a held run without a result or a charge on reset', async () => {
		await api.control('/router/settings', { holdProvider: {} });
		const run = api.post('/v2/models/stratus/sd-3', INPUT, { 'Idempotency-Key': 'h-reset' });
		await api.untilHeld();
		await api.control('/reset');
		const res = await run;
		expect([res.status, res.headers.get('x-service-error-type')]).toEqual([500, 'internal_error']);
		expect(await api.held()).toBe(0);
		expect((await api.counters()).charges).toEqual({});
		expect((await settings()).settings.holdProvider).toBeNull();
	});

	it('refuses a malformed hold or release', async () => {
		for (const holdProvider of [true, 'lumen/flux-1', { model: 7 }, []]) {
			const res = await fetch(`${api.base}/__emulator/router/settings`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ holdProvider })
			});
			expect([JSON.stringify(holdProvider), res.status]).toEqual([JSON.stringify(holdProvider), 400]);
		}
		await expect(api.control('/router/release', { count: 0 })).rejects.toThrow(/count/);
	});
});
