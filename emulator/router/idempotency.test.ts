import { describe, expect, it } from 'vitest';
import { eventually, useRouterEmulator } from './test-helpers';
import { counterKey } from './idempotency';
import { triggerFor } from './provider/triggers';

const api = useRouterEmulator({ settings: { providerMs: 40 } });

const WS = 'ws:ws_demo';
const MODEL = '/v2/models/lumen/flux-1';
const INPUT = { prompt: 'a lighthouse', image_size: 'square' };
const HOUR = 3600_000;
const key = (k: string): Record<string, string> => ({ 'Idempotency-Key': k });

async function counts(k: string, scope = WS): Promise<[number | undefined, number | undefined]> {
	const c = await api.counters();
	return [c.dispatches[counterKey(scope, k)], c.charges[counterKey(scope, k)]];
}

describe('idempotency', () => {
	it('replays a completed call with Idempotent-Replayed: true, the same bytes, one dispatch and one charge (rules 1-2)', async () => {
		const first = await api.post(MODEL, INPUT, key('k1'));
		expect(first.status).toBe(200);
		expect(first.headers.get('idempotency-key')).toBeNull();
		const firstBody = await first.text();
		const again = await api.post(MODEL, INPUT, key('k1'));
		expect(again.status).toBe(200);
		expect(again.headers.get('idempotent-replayed')).toBe('true');
		expect(again.headers.get('x-content-type-options')).toBe('nosniff');
		expect(again.headers.get('x-service-credits-used')).toBeNull();
		expect(again.headers.get('x-service-request-id')).not.toBe(first.headers.get('x-service-request-id'));
		expect(await again.text()).toBe(firstBody);
		// Key order and spacing of the body do not make it another request.
		const reordered = await api.post(MODEL, `{ "image_size": "square",  "prompt": "a lighthouse" }`, key('k1'));
		expect(reordered.headers.get('idempotent-replayed')).toBe('true');
		expect(await counts('k1')).toEqual([1, 1]);
	});

	it('answers 409 invalid_input for a key reused with another path, query or body (rule 3)', async () => {
		await api.post(MODEL, INPUT, key('k3'));
		for (const [path, body] of [
			[MODEL, { ...INPUT, prompt: 'other' }],
			['/v2/models/lumen/flux-2', INPUT],
			[`${MODEL}?variant=1`, INPUT],
			[`${MODEL}/requests`, INPUT]
		] as const) {
			const res = await api.post(path, body, key('k3'));
			expect(res.status).toBe(409);
			expect(res.headers.get('x-service-error-type')).toBe('invalid_input');
			expect(res.headers.get('retry-after')).toBeNull();
		}
		expect(await counts('k3')).toEqual([1, 1]);
	});

	it('keeps records 24 hours of emulator time from creation; retries do not extend them (rule 4)', async () => {
		await api.post(MODEL, INPUT, key('k4'));
		await api.control('/clock/advance', { ms: 23 * HOUR });
		expect((await api.post(MODEL, INPUT, key('k4'))).headers.get('idempotent-replayed')).toBe('true');
		await api.control('/clock/advance', { ms: HOUR });
		const after = await api.post(MODEL, INPUT, key('k4'));
		expect(after.status).toBe(200);
		expect(after.headers.get('idempotent-replayed')).toBeNull();
		expect(await counts('k4')).toEqual([2, 2]);
		// After expiry the key does not block another body either.
		await api.control('/clock/advance', { ms: 25 * HOUR });
		expect((await api.post(MODEL, { ...INPUT, prompt: 'new' }, key('k4'))).status).toBe(200);
	});

	it('replays signed URLs unchanged: replay does not renew their lifetime (rule 4)', async () => {
		const first = (await (await api.post(MODEL, INPUT, key('k4b'))).json()) as { images: Array<{ url: string }> };
		await api.control('/clock/advance', { ms: 2 * HOUR });
		const replay = (await (await api.post(MODEL, INPUT, key('k4b'))).json()) as { images: Array<{ url: string }> };
		expect(replay.images[0]!.url).toBe(first.images[0]!.url);
	});

	it('stops replaying a result left on the provider CDN once its links expire; service-hosted results keep replaying (rule 5)', async () => {
		const cdnModel = '/v2/models/kestrel/kolor-image';
		expect((await api.post(cdnModel, INPUT, key('k5-cdn'))).status).toBe(200);
		await api.control('/clock/advance', { ms: 30 * 60_000 });
		expect((await api.post(cdnModel, INPUT, key('k5-cdn'))).headers.get('idempotent-replayed')).toBe('true');
		await api.control('/clock/advance', { ms: 31 * 60_000 });
		const stale = await api.post(cdnModel, INPUT, key('k5-cdn'));
		expect([stale.status, stale.headers.get('x-service-error-type')]).toEqual([409, 'invalid_input']);
		expect(await counts('k5-cdn')).toEqual([1, 1]);
	});

	it('keeps running a call whose caller disconnected: a same-key retry replays it, charged once (rule 7)', async () => {
		await api.control('/router/settings', { holdProvider: {} });
		const abort = new AbortController();
		const cut = fetch(`${api.base}${MODEL}`, {
			method: 'POST',
			signal: abort.signal,
			headers: api.headers({ 'Content-Type': 'application/json', ...key('k7-abort') }),
			body: JSON.stringify(INPUT)
		});
		await api.untilHeld();
		abort.abort();
		await expect(cut).rejects.toThrow();
		await api.control('/router/settings', { holdProvider: null });
		const replay = await eventually(
			async () => {
				const res = await api.post(MODEL, INPUT, key('k7-abort'));
				return res.status === 200 ? res : undefined;
			},
			5000,
			100
		);
		expect(replay.headers.get('idempotent-replayed')).toBe('true');
		expect(await counts('k7-abort')).toEqual([1, 1]);
	});

	it('consumes a key whose response is too large to keep: a retry gets 409, a new key starts a new call (rule 5)', async () => {
		await api.control('/router/settings', { replayLimitBytes: 100 });
		expect((await api.post(MODEL, INPUT, key('k5'))).status).toBe(200);
		const retry = await api.post(MODEL, INPUT, key('k5'));
		expect([retry.status, retry.headers.get('x-service-error-type')]).toEqual([409, 'invalid_input']);
		await new Promise((r) => setTimeout(r, 5));
		expect((await api.post(MODEL, INPUT, key('k5-new'))).status).toBe(200);
		expect(await counts('k5')).toEqual([1, 1]);
		expect(await counts('k5-new')).toEqual([1, 1]);
	});

	it('releases a key refused before dispatch, and after a provider-attributed transient failure (rule 6)', async () => {
		await api.control('/router/settings', { inFlightLimit: 0 });
		expect((await api.post(MODEL, INPUT, key('k6'))).status).toBe(429);
		await api.control('/router/settings', { inFlightLimit: 16 });
		expect((await api.post(MODEL, INPUT, key('k6'))).status).toBe(200);
		expect(await counts('k6')).toEqual([1, 1]);
		const failing = { prompt: `a ${triggerFor('provider_error')}` };
		expect((await api.post(MODEL, failing, key('k6-fail'))).status).toBe(502);
		const again = await api.post(MODEL, failing, key('k6-fail'));
		expect(again.status).toBe(502);
		expect(again.headers.get('idempotent-replayed')).toBeNull();
		expect(await counts('k6-fail')).toEqual([2, undefined]);
	});

	it('replays a dispatched refusal (content policy 400, provider 422) with Idempotent-Replayed', async () => {
		const policy = await api.post('/v2/models/stratus/sd-3', { prompt: 'nsfw' }, key('k6-cp'));
		expect(policy.status).toBe(400);
		const policyAgain = await api.post('/v2/models/stratus/sd-3', { prompt: 'nsfw' }, key('k6-cp'));
		expect([
			policyAgain.status,
			policyAgain.headers.get('idempotent-replayed'),
			policyAgain.headers.get('x-service-upstream-status')
		]).toEqual([400, 'true', '400']);
		await api.post('/v2/models/openforge/community-sdxl', { no: 'prompt' }, key('k6-422'));
		const provider422 = await api.post('/v2/models/openforge/community-sdxl', { no: 'prompt' }, key('k6-422'));
		expect([provider422.status, provider422.headers.get('idempotent-replayed')]).toEqual([422, 'true']);
		expect(await counts('k6-cp')).toEqual([1, 1]);
	});

	it('drop-recoverable: the connection drops after dispatch, a same-key retry gets 409 with Retry-After while it runs, then the replay (rules 6-8)', async () => {
		await api.control('/router/settings', { holdProvider: {} });
		await api.control('/router/faults', { dropAfterDispatch: 'recoverable' });
		await expect(api.post(MODEL, INPUT, key('k7'))).rejects.toThrow();
		const running = await api.post(MODEL, INPUT, key('k7'));
		expect(running.status).toBe(409);
		expect(running.headers.get('x-service-error-type')).toBe('concurrency_limit_exceeded');
		expect(Number(running.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		await api.control('/router/release');
		const replay = await eventually(async () => {
			const res = await api.post(MODEL, INPUT, key('k7'));
			return res.status === 200 ? res : undefined;
		});
		expect(replay.headers.get('idempotent-replayed')).toBe('true');
		expect(await counts('k7')).toEqual([1, 1]);
	});

	it('drop-consumed: the key is consumed with no recoverable result; a same-key retry gets 409, the provider still charges once', async () => {
		await api.control('/router/faults', { dropAfterDispatch: 'consumed' });
		await expect(api.post(MODEL, INPUT, key('k8'))).rejects.toThrow();
		await eventually(async () => ((await counts('k8'))[1] === 1 ? true : undefined));
		const retry = await api.post(MODEL, INPUT, key('k8'));
		expect([retry.status, retry.headers.get('x-service-error-type')]).toEqual([409, 'invalid_input']);
		expect(await counts('k8')).toEqual([1, 1]);
		// A new key may create a second billable run (rule 7).
		expect((await api.post(MODEL, INPUT, key('k8-new'))).status).toBe(200);
		expect(await counts('k8-new')).toEqual([1, 1]);
	});

	it('shares keys within the workspace of the credential, and scopes them to the user when it has none', async () => {
		await api.post(MODEL, INPUT, key('k9'));
		const sameWs = (await api.control('/router/token', { user: 'someone_else', workspace: 'ws_demo' })) as { token: string };
		const otherWs = (await api.control('/router/token', { user: 'user_demo', workspace: 'ws_other' })) as { token: string };
		const noWs = (await api.control('/router/token', { user: 'solo', workspace: null })) as { token: string };
		const post = (token: string): Promise<Response> =>
			fetch(`${api.base}${MODEL}`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'k9' },
				body: JSON.stringify(INPUT)
			});
		expect((await post(sameWs.token)).headers.get('idempotent-replayed')).toBe('true');
		expect((await post(otherWs.token)).headers.get('idempotent-replayed')).toBeNull();
		expect((await post(noWs.token)).headers.get('idempotent-replayed')).toBeNull();
		expect((await post(noWs.token)).headers.get('idempotent-replayed')).toBe('true');
		expect(await counts('k9')).toEqual([1, 1]);
		expect(await counts('k9', 'ws:ws_other')).toEqual([1, 1]);
		expect(await counts('k9', 'user:solo')).toEqual([1, 1]);
	});
});
