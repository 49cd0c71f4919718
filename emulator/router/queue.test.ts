import { describe, expect, it } from 'vitest';
import type {
	RouterQueueCancelResponse,
	RouterQueueStatusResponse,
	RouterQueueSubmitResponse
} from '../../src/lib/models/protocol/router-api';
import { ROUTER_QUEUE_REQUEST_ID_PATTERN } from '../../src/lib/models/protocol/router-api';
import { eventually, useRouterEmulator } from './test-helpers';
import { counterKey } from './idempotency';
import { triggerFor } from './provider/triggers';

const api = useRouterEmulator({ settings: { providerMs: 40 } });

const WS = 'ws:ws_demo';
const MODEL = '/v2/models/stratus/sd-3';
const INPUT = { prompt: 'a heron', aspect_ratio: '1:1' };
const pathOf = (url: string): string => new URL(url).pathname;

async function submit(input: unknown = INPUT, headers: Record<string, string> = {}, model = MODEL): Promise<RouterQueueSubmitResponse> {
	const res = await api.post(`${model}/requests`, input, headers);
	expect(res.status).toBe(201);
	const body = (await res.json()) as RouterQueueSubmitResponse;
	expect(body.request_id).toBe(res.headers.get('x-service-request-id'));
	return body;
}

async function status(sub: RouterQueueSubmitResponse): Promise<RouterQueueStatusResponse> {
	const res = await api.get(pathOf(sub.status_url));
	expect(res.status).toBe(200);
	return (await res.json()) as RouterQueueStatusResponse;
}

async function completed(sub: RouterQueueSubmitResponse): Promise<RouterQueueStatusResponse> {
	return eventually(async () => {
		const s = await status(sub);
		return s.status === 'COMPLETED' ? s : undefined;
	});
}

describe('queue', () => {
	it('submits with 201, a request id equal to X-Service-Request-Id, absolute URLs and a queue position', async () => {
		const sub = await submit();
		expect(sub.request_id).toMatch(ROUTER_QUEUE_REQUEST_ID_PATTERN);
		expect(sub.status_url).toBe(`${api.base}/v2/models/stratus/sd-3/requests/${sub.request_id}/status`);
		expect(sub.response_url).toBe(`${api.base}/v2/models/stratus/sd-3/requests/${sub.request_id}`);
		expect(sub.cancel_url).toBe(`${api.base}/v2/models/stratus/sd-3/requests/${sub.request_id}/cancel`);
		expect(['IN_QUEUE', 'IN_PROGRESS']).toContain(sub.status);
	});

	it('reports exactly three statuses, with Retry-After while unfinished and no error_type on success', async () => {
		// The first is held at the provider, so it still runs and the second still waits when asked.
		await api.control('/router/settings', { holdProvider: {}, queueConcurrency: 1 });
		const first = await submit();
		const second = await submit({ ...INPUT, prompt: 'second' });
		await api.untilHeld();
		const s1 = await api.get(pathOf(first.status_url));
		expect(((await s1.json()) as RouterQueueStatusResponse).status).toBe('IN_PROGRESS');
		expect(s1.headers.get('retry-after')).toBe('1');
		const s2 = await status(second);
		expect(s2).toMatchObject({ status: 'IN_QUEUE', queue_position: 0 });
		await api.control('/router/settings', { holdProvider: null });
		const seen = new Set<string>();
		const done = await eventually(async () => {
			const s = await status(second);
			seen.add(s.status);
			return s.status === 'COMPLETED' ? s : undefined;
		});
		expect(done).not.toHaveProperty('error_type');
		expect(done).not.toHaveProperty('queue_position');
		expect([...seen].every((s) => ['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED'].includes(s))).toBe(true);
	});

	it('collects 202 with Retry-After before completion, then the same bytes the synchronous run returns', async () => {
		await api.control('/router/settings', { holdProvider: {} });
		const sub = await submit();
		await api.untilHeld();
		const early = await api.get(pathOf(sub.response_url));
		expect(early.status).toBe(202);
		expect(early.headers.get('retry-after')).toBe('1');
		expect(((await early.json()) as RouterQueueStatusResponse).request_id).toBe(sub.request_id);
		await api.control('/router/settings', { holdProvider: null });
		await completed(sub);
		const collected = await api.get(pathOf(sub.response_url));
		expect(collected.status).toBe(200);
		expect(collected.headers.get('content-type')).toBe('image/png');
		expect(collected.headers.get('x-content-type-options')).toBe('nosniff');
		const sync = await api.post(MODEL, INPUT);
		expect(Buffer.from(await collected.arrayBuffer()).equals(Buffer.from(await sync.arrayBuffer()))).toBe(true);
		// Collecting again is allowed while retained.
		expect((await api.get(pathOf(sub.response_url))).status).toBe(200);
	});

	it('completes a failed run with error_type and answers collect with that error', async () => {
		const sub = await submit({ prompt: `x ${triggerFor('provider_error')}` });
		const done = await completed(sub);
		expect(done.error_type).toBe('provider_error');
		const collected = await api.get(pathOf(sub.response_url));
		expect(collected.status).toBe(502);
		expect(collected.headers.get('x-service-error-type')).toBe('provider_error');
		expect(collected.headers.get('x-service-upstream-status')).toBe('500');
		const refused = await submit({ text: 'no prompt' }, {}, '/v2/models/openforge/community-sdxl');
		expect((await completed(refused)).error_type).toBe('invalid_input');
		expect((await api.get(pathOf(refused.response_url))).status).toBe(422);
	});

	it('validates before admission: 422 and not queued; 400 for malformed bodies; 404, 403 and 402 as a run', async () => {
		const bad = await api.post(`${MODEL}/requests`, { prompt: 7 });
		expect(bad.status).toBe(422);
		expect(bad.headers.get('x-service-error-type')).toBe('invalid_input');
		expect((await api.post(`${MODEL}/requests`, '{oops')).status).toBe(400);
		const big = await api.post(`${MODEL}/requests`, { prompt: 'x'.repeat(11 * 1024 * 1024) });
		expect([big.status, big.headers.get('x-service-error-type')]).toEqual([413, 'invalid_input']);
		expect((await api.post('/v2/models/stratus/none/requests', INPUT)).status).toBe(404);
		expect((await api.post('/v2/models/atelier-enterprise/studio-image/requests', INPUT)).status).toBe(403);
		await api.control('/scenario', { name: 'no-credits' });
		const broke = await api.post(`${MODEL}/requests`, INPUT);
		expect([broke.status, broke.headers.get('x-service-error-type')]).toEqual([402, 'insufficient_credits']);
		expect((await api.counters()).dispatches).toEqual({});
	});

	it('cancels a queued request at once: 202 CANCELLATION_REQUESTED, COMPLETED with error_type cancelled, never dispatched', async () => {
		await api.control('/router/settings', { queuePaused: true });
		const sub = await submit(INPUT, { 'Idempotency-Key': 'q-cancel' });
		const res = await api.put(pathOf(sub.cancel_url));
		expect(res.status).toBe(202);
		expect((await res.json()) as RouterQueueCancelResponse).toEqual({ request_id: sub.request_id, status: 'CANCELLATION_REQUESTED' });
		expect(await status(sub)).toMatchObject({ status: 'COMPLETED', error_type: 'cancelled' });
		const collect = await api.get(pathOf(sub.response_url));
		expect([collect.status, collect.headers.get('x-service-error-type')]).toEqual([409, 'cancelled']);
		const again = await api.put(pathOf(sub.cancel_url));
		expect(again.status).toBe(409);
		expect(await again.json()).toEqual({ request_id: sub.request_id, status: 'ALREADY_COMPLETED' });
		await api.control('/router/settings', { queuePaused: false });
		const c = await api.counters();
		expect(c.dispatches[counterKey(WS, 'q-cancel')]).toBeUndefined();
	});

	it('late cancel: a run already at the provider completes and is charged; collect returns the result', async () => {
		// Held at the provider: the cancel reaches it there, and lets it go on to its answer.
		await api.control('/router/settings', { holdProvider: {} });
		const sub = await submit(INPUT, { 'Idempotency-Key': 'q-late' });
		await api.untilHeld();
		await eventually(async () => ((await status(sub)).status === 'IN_PROGRESS' ? true : undefined));
		expect((await api.put(pathOf(sub.cancel_url))).status).toBe(202);
		const done = await completed(sub);
		expect(done.error_type).toBe('cancelled');
		const collect = await api.get(pathOf(sub.response_url));
		expect(collect.status).toBe(200);
		expect(collect.headers.get('content-type')).toBe('image/png');
		const c = await api.counters();
		expect([c.dispatches[counterKey(WS, 'q-late')], c.charges[counterKey(WS, 'q-late')]]).toEqual([1, 1]);
	});

	it('operator cancel mid-run: COMPLETED with cancelled at once, the provider work is still charged, no result to collect', async () => {
		await api.control('/router/settings', { holdProvider: {} });
		const sub = await submit(INPUT, { 'Idempotency-Key': 'q-operator' });
		await api.untilHeld();
		await eventually(async () => ((await status(sub)).status === 'IN_PROGRESS' ? true : undefined));
		await api.control(`/router/requests/${sub.request_id}/cancel`);
		expect(await status(sub)).toMatchObject({ status: 'COMPLETED', error_type: 'cancelled' });
		await eventually(async () => ((await api.counters()).charges[counterKey(WS, 'q-operator')] === 1 ? true : undefined));
		const collect = await api.get(pathOf(sub.response_url));
		expect([collect.status, collect.headers.get('x-service-error-type')]).toEqual([409, 'cancelled']);
		expect(await status(sub)).toMatchObject({ status: 'COMPLETED', error_type: 'cancelled' });
	});

	it('times out a request that waits past its queue timeout, by emulator time', async () => {
		await api.control('/router/settings', { queuePaused: true });
		const sub = await submit();
		await api.control('/clock/advance', { ms: 11 * 60_000 });
		expect(await status(sub)).toMatchObject({ status: 'COMPLETED', error_type: 'queue_timeout' });
		const collect = await api.get(pathOf(sub.response_url));
		expect([collect.status, collect.headers.get('x-service-error-type')]).toEqual([504, 'queue_timeout']);
		expect(Number(collect.headers.get('retry-after'))).toBeGreaterThan(0);
	});

	it('answers 410 past retention, 404 request_not_found for unknown, foreign or other-model ids, 400 for a malformed cancel id', async () => {
		const sub = await submit();
		await completed(sub);
		const otherModel = `/v2/models/stratus/sd-3-large/requests/${sub.request_id}`;
		for (const path of [
			`${MODEL}/requests/00000000-0000-4000-8000-000000000000`,
			otherModel,
			`${otherModel}/status`,
			`${MODEL}/requests/not-an-id`
		]) {
			const res = await api.get(path);
			expect([path, res.status, res.headers.get('x-service-error-type')]).toEqual([path, 404, 'request_not_found']);
		}
		const { token } = (await api.control('/router/token', { user: 'u2', workspace: 'ws_other' })) as { token: string };
		const foreign = await fetch(sub.status_url, { headers: { Authorization: `Bearer ${token}` } });
		expect(foreign.status).toBe(404);
		const badCancel = await api.put(`${MODEL}/requests/not-an-id/cancel`);
		expect([badCancel.status, badCancel.headers.get('x-service-error-type')]).toEqual([400, 'invalid_input']);
		expect((await api.put(`${MODEL}/requests/00000000-0000-4000-8000-000000000000/cancel`)).status).toBe(404);
		await api.control('/clock/advance', { ms: 24 * 3600_000 });
		for (const url of [sub.status_url, sub.response_url]) {
			const res = await api.get(pathOf(url));
			expect([res.status, res.headers.get('x-service-error-type')]).toEqual([410, 'request_not_found']);
		}
	});

	it('replays a keyed submission: the same request id with Idempotent-Replayed, one dispatch', async () => {
		const first = await submit(INPUT, { 'Idempotency-Key': 'q-key' });
		const again = await api.post(`${MODEL}/requests`, INPUT, { 'Idempotency-Key': 'q-key' });
		expect(again.status).toBe(201);
		expect(again.headers.get('idempotent-replayed')).toBe('true');
		expect(((await again.json()) as RouterQueueSubmitResponse).request_id).toBe(first.request_id);
		await completed(first);
		const conflict = await api.post(`${MODEL}/requests`, { ...INPUT, prompt: 'changed' }, { 'Idempotency-Key': 'q-key' });
		expect([conflict.status, conflict.headers.get('x-service-error-type')]).toEqual([409, 'invalid_input']);
		expect((await api.counters()).dispatches[counterKey(WS, 'q-key')]).toBe(1);
	});

	it('answers 503 on every queue route while the router is unavailable', async () => {
		const sub = await submit();
		await api.control('/router/faults', { runsUnavailable: true });
		for (const res of [
			await api.post(`${MODEL}/requests`, INPUT),
			await api.get(pathOf(sub.status_url)),
			await api.get(pathOf(sub.response_url)),
			await api.put(pathOf(sub.cancel_url))
		]) {
			expect([res.status, res.headers.get('x-service-error-type')]).toEqual([503, 'service_unavailable']);
		}
	});

	it('admits within the spend ceiling: requests wait in the queue instead of being refused', async () => {
		await api.control('/router/settings', { holdProvider: {}, spendLimitCents: 100, queueConcurrency: 10 });
		const a = await submit({ prompt: 'a' }, {}, '/v2/models/kestrel/kestrel-v1-text-to-video');
		const b = await submit({ prompt: 'b' }, {}, '/v2/models/kestrel/kestrel-v1-text-to-video');
		expect((await status(a)).status).toBe('IN_PROGRESS');
		expect(await status(b)).toMatchObject({ status: 'IN_QUEUE', queue_position: 0 });
		await api.control('/router/settings', { holdProvider: null });
		await completed(b);
	});
});
