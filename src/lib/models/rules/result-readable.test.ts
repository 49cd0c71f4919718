import { describe, expect, it } from 'vitest';
import type { RawResponse } from '../../core/rules/http-response';
import type { ModelRun, QueueHandle } from './model-run';
import { stepModelRun } from './model-run-reducer';
import { newModelRun, retried } from './model-run-commands';
import type { ModelCall, ModelContext, ModelDrive } from './model-drive';
import { unreadableResult } from './result-readable';

const ROUTER = 'https://router.example.com';
const ctx: ModelContext = { now: 5000, random: 0, origin: ROUTER };
const FULL = '{"images":[{"url":"https://cdn.example.com/a.png"}],"seed":42}';
/** The same answer cut off after 18 bytes, its Content-Length matching what was sent. */
const CUT = FULL.slice(0, 18);

function raw(body: string, contentType = 'application/json', headers: Record<string, string> = {}): RawResponse {
	const h = new Headers({ 'Content-Type': contentType, 'X-Service-Request-Id': 'req-9', ...headers });
	return { status: 200, header: (n) => h.get(n), body: '', bytes: new TextEncoder().encode(body) };
}

const queue: QueueHandle = {
	requestId: 'q1',
	statusUrl: `${ROUTER}/v2/models/lumen/flux-1/requests/q1/status`,
	responseUrl: `${ROUTER}/v2/models/lumen/flux-1/requests/q1`,
	cancelUrl: `${ROUTER}/v2/models/lumen/flux-1/requests/q1/cancel`,
	polls: 2,
	lastStatus: 'COMPLETED'
};

function drive(call: Extract<ModelCall, 'sync' | 'collect'>): ModelDrive {
	const made = newModelRun(
		{ profileId: 'p', modelId: 'lumen/flux-1', mode: call === 'sync' ? 'sync' : 'queue', body: { prompt: 'a lighthouse' } },
		{ id: 'r1', key: 'k1' },
		0,
		false
	);
	if (!made.ok) throw new Error('expected a run');
	const run: ModelRun = { ...made.value, status: call === 'sync' ? 'running' : 'queued', ...(call === 'collect' ? { queue } : {}) };
	return { run, call, misses: 0 };
}

describe('whether an answer can be read', () => {
	it.each([
		{ name: 'whole JSON', reply: raw(FULL), unreadable: false },
		{ name: 'JSON cut off mid-way', reply: raw(CUT), unreadable: true },
		{ name: 'a +json type cut off', reply: raw(CUT, 'application/vnd.result+json; charset=utf-8'), unreadable: true },
		{ name: 'an image (its bytes are the result)', reply: raw('\x89PNG', 'image/png'), unreadable: false },
		{ name: 'plain text', reply: raw('{not json', 'text/plain'), unreadable: false }
	])('$name', ({ reply, unreadable }) => {
		expect(unreadableResult(reply, 'sync') !== undefined).toBe(unreadable);
	});

	it('says how much came, keeps the request id, and shows what came', () => {
		const error = unreadableResult(raw(CUT), 'sync')!;
		expect(error).toMatchObject({ kind: 'unreadable-result', status: 200, requestId: 'req-9', detail: CUT });
		expect(error.message).toBe(
			'The model finished, but its answer could not be read: 18 bytes that are not valid JSON, perhaps cut off on the way. ' +
				'"Retry with the same key" asks for the same answer again without starting a new run.'
		);
	});
});

describe('a run whose successful answer cannot be read', () => {
	it('a synchronous run is not a success: it fails with the request id and credits kept, and stores nothing', () => {
		const step = stepModelRun(drive('sync'), { type: 'reply', raw: raw(CUT, 'application/json', { 'X-Service-Credits-Used': '7' }) }, ctx);
		expect(step.effect).toEqual({ type: 'stop' });
		expect(step.drive.run).toMatchObject({ status: 'failed', requestId: 'req-9', creditsUsed: 7, finishedAt: 5000 });
		expect(step.drive.run.error?.kind).toBe('unreadable-result');
		expect(step.drive.run.result).toBeUndefined();
	});

	it('a queued run fails the same way and offers a second collect', () => {
		const step = stepModelRun(drive('collect'), { type: 'reply', raw: raw(CUT) }, ctx);
		expect(step.drive.run.status).toBe('failed');
		expect(step.drive.run.error?.message).toContain('"Collect again" asks the queue for it once more.');
	});

	it('asking again keeps the key: a synchronous run is sent again, a queued one is read from its queue again', () => {
		const sync = stepModelRun(drive('sync'), { type: 'reply', raw: raw(CUT) }, ctx).drive.run;
		expect(retried(sync, 6000)).toMatchObject({ status: 'submitting', idempotencyKey: sync.idempotencyKey });
		expect(retried(sync, 6000).error).toBeUndefined();
		const queued = stepModelRun(drive('collect'), { type: 'reply', raw: raw(CUT) }, ctx).drive.run;
		expect(retried(queued, 6000)).toMatchObject({ status: 'queued', queue: { responseUrl: queue.responseUrl } });
	});

	it('a whole answer is still stored as the result', () => {
		expect(stepModelRun(drive('sync'), { type: 'reply', raw: raw(FULL) }, ctx).effect).toEqual({
			type: 'store-result',
			reply: expect.anything()
		});
	});
});
