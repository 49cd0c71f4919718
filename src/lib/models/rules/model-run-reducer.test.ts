import { describe, expect, it } from 'vitest';
import type { RawResponse } from '../../core/rules/http-response';
import type { ModelRun, QueueHandle } from './model-run';
import { beginDrive, stepModelRun } from './model-run-reducer';
import { cancelAnswered, newModelRun, notSent, NOT_CANCELLABLE, releasedFromOutbox, retried, stoppedWaiting } from './model-run-commands';
import type { ModelAnswer, ModelContext, ModelDrive } from './model-drive';

const ROUTER = 'https://router.example.com';
const made = <T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T => {
	if (!result.ok) throw new Error('expected a value');
	return result.value;
};
const ctx: ModelContext = { now: 1000, random: 0, origin: ROUTER };
const DAY = 24 * 60 * 60 * 1000;

function raw(status: number, body: unknown = {}, headers: Record<string, string> = {}): RawResponse {
	const h = new Headers({ 'X-Service-Request-Id': 'req-1', ...headers });
	return { status, header: (n) => h.get(n), body: typeof body === 'string' ? body : JSON.stringify(body) };
}

const reply = (status: number, body?: unknown, headers?: Record<string, string>): ModelAnswer => ({
	type: 'reply',
	raw: raw(status, body, headers)
});
const noReply = (kind: 'network' | 'timeout' | 'aborted' | 'unauthorized'): ModelAnswer => ({
	type: 'no-reply',
	error: { kind, message: `A ${kind}.` }
});
const errorBody = (error_type: string) => ({ detail: 'x', error_type });

const run = (over: Partial<ModelRun> = {}): ModelRun => ({
	...made(
		newModelRun(
			{ profileId: 'p', modelId: 'lumen/flux-1', mode: 'sync', body: { prompt: 'a lighthouse' } },
			{ id: 'r1', key: 'k1' },
			0,
			false
		)
	),
	...over
});

const queue: QueueHandle = {
	requestId: 'q1',
	statusUrl: `${ROUTER}/v2/models/lumen/flux-1/requests/q1/status`,
	responseUrl: `${ROUTER}/v2/models/lumen/flux-1/requests/q1`,
	cancelUrl: `${ROUTER}/v2/models/lumen/flux-1/requests/q1/cancel`,
	polls: 0,
	lastStatus: 'IN_QUEUE'
};

const at = (call: ModelDrive['call'], over: Partial<ModelRun> = {}, misses = 0): ModelDrive => ({
	run: run({
		status: call === 'sync' ? 'running' : 'queued',
		...(call === 'sync' || call === 'submit' ? {} : { mode: 'queue', queue }),
		...over
	}),
	call,
	misses
});

describe('where a run begins', () => {
	it.each([
		{ name: 'a synchronous run asks for a connection', drive: beginDrive(run()), effect: { type: 'acquire-slot' } },
		{ name: 'a queued run without a handle submits', drive: beginDrive(run({ mode: 'queue' })), effect: { type: 'call', call: 'submit' } },
		{
			name: 'a queued run with a handle polls',
			drive: beginDrive(run({ mode: 'queue', queue })),
			effect: { type: 'call', call: 'status' }
		},
		{ name: 'a finished run stops', drive: beginDrive(run({ status: 'succeeded' })), effect: { type: 'stop' } }
	])('$name', ({ drive, effect }) => {
		expect(stepModelRun(drive, { type: 'begin' }, ctx).effect).toEqual(effect);
	});

	it('counts a submit as an attempt', () => {
		const { drive } = stepModelRun(beginDrive(run({ mode: 'queue' })), { type: 'begin' }, ctx);
		expect(drive.run).toMatchObject({ attempts: 1, phase: 'Submitting to the queue.' });
	});

	it('a key past its 24-hour retention is never sent again: outcome unknown', () => {
		const { drive, effect } = stepModelRun(beginDrive(run()), { type: 'begin' }, { ...ctx, now: DAY });
		expect(effect).toEqual({ type: 'stop' });
		expect(drive.run).toMatchObject({ status: 'unknown', error: { kind: 'outcome-unknown', message: expect.stringContaining('24-hour') } });
	});

	it('refuses queue URLs off the router origin before sending the key there', () => {
		const evil = { ...queue, statusUrl: 'https://evil.example/status' };
		const { drive, effect } = stepModelRun(beginDrive(run({ mode: 'queue', queue: evil })), { type: 'begin' }, ctx);
		expect(effect).toEqual({ type: 'stop' });
		expect(drive.run).toMatchObject({ status: 'failed', error: { kind: 'origin-refused' } });
	});
});

describe('a synchronous call', () => {
	it('says so while it waits for one of the few connections, then sends as an attempt', () => {
		const waiting = stepModelRun(at('sync', { status: 'submitting' }), { type: 'slot-busy', size: 4 }, ctx);
		expect(waiting.drive.run.phase).toBe('Waiting for a free connection: 4 synchronous calls are already held open.');
		expect(waiting.drive.run.status).toBe('submitting');
		expect(waiting.effect).toEqual({ type: 'acquire-slot', queued: true });
		const sending = stepModelRun(waiting.drive, { type: 'slot-acquired' }, ctx);
		expect(sending.effect).toEqual({ type: 'call', call: 'sync' });
		expect(sending.drive.run).toMatchObject({ status: 'running', attempts: 1, startedAt: 1000, phase: 'Waiting for the model.' });
		const again = stepModelRun({ ...sending.drive }, { type: 'slot-acquired' }, ctx);
		expect(again.drive.run).toMatchObject({ attempts: 2, phase: 'Sent again under the same key; waiting for the model.' });
	});

	it.each([
		{
			name: '200 keeps the result facts and stores the bytes',
			answer: reply(200, 'PNG', { 'Idempotent-Replayed': 'true', 'X-Service-Credits-Used': '7' }),
			effect: { type: 'store-result', reply: expect.anything() },
			run: { status: 'running' }
		},
		{
			name: '409 concurrency_limit_exceeded with Retry-After waits and sends again under the key',
			answer: reply(409, errorBody('concurrency_limit_exceeded'), {
				'X-Service-Error-Type': 'concurrency_limit_exceeded',
				'Retry-After': '3'
			}),
			effect: { type: 'wait', ms: 3000 },
			run: { phase: 'Retrying under the same key in 3 s: the original call with this key is still running.', requestId: 'req-1' }
		},
		{
			name: '504 with Retry-After waits: the run continues at the provider',
			answer: reply(504, errorBody('deadline_exceeded'), { 'Retry-After': '5' }),
			effect: { type: 'wait', ms: 5000 },
			run: { phase: expect.stringContaining('the service stopped waiting') }
		},
		{
			name: '504 without Retry-After is a failure',
			answer: reply(504, errorBody('deadline_exceeded')),
			effect: { type: 'stop' },
			run: { status: 'failed', error: { status: 504, errorType: 'deadline_exceeded' } }
		},
		{
			name: '409 invalid_input: the key was consumed, outcome unknown',
			answer: reply(409, errorBody('invalid_input'), { 'X-Service-Error-Type': 'invalid_input' }),
			effect: { type: 'stop' },
			run: { status: 'unknown', error: { kind: 'outcome-unknown', status: 409, requestId: 'req-1', errorType: 'invalid_input' } }
		},
		{
			name: '422 marks each field (not billed)',
			answer: reply(422, { detail: [{ loc: ['body', 'steps'], msg: 'too many', type: 'le' }] }),
			effect: { type: 'stop' },
			run: {
				status: 'failed',
				error: { kind: 'invalid-input', errorType: 'invalid_input' },
				fieldErrors: [{ loc: ['body', 'steps'], msg: 'too many' }]
			}
		},
		{
			name: '422 with a text detail shows it and marks no field',
			answer: reply(422, { detail: 'Prompt is too long for this model' }),
			effect: { type: 'stop' },
			run: {
				status: 'failed',
				error: { kind: 'invalid-input', message: expect.stringContaining(': Prompt is too long for this model.') },
				fieldErrors: []
			}
		},
		{
			name: '422 with a message and no detail',
			answer: reply(422, { message: 'Image URL could not be fetched.' }),
			effect: { type: 'stop' },
			run: { status: 'failed', error: { message: expect.stringContaining('Image URL could not be fetched.') }, fieldErrors: [] }
		},
		{
			name: '422 with entries that only point at the body',
			answer: reply(422, { detail: [{ loc: ['body'], msg: 'Expected an object' }] }),
			effect: { type: 'stop' },
			run: { status: 'failed', error: { message: expect.stringContaining('messages above the form') } }
		},
		{
			name: '422 with an unreadable body',
			answer: reply(422, '<html>bad</html>'),
			effect: { type: 'stop' },
			run: { status: 'failed', error: { message: expect.not.stringContaining('marked') }, fieldErrors: [] }
		},
		{
			name: '429 rate_limited says how long to wait',
			answer: reply(429, errorBody('rate_limited'), { 'X-Service-Error-Type': 'rate_limited', 'Retry-After': '10' }),
			effect: { type: 'stop' },
			run: { status: 'failed', error: { kind: 'rate-limited', message: expect.stringContaining('wait 10 s') } }
		}
	])('$name', ({ answer, effect, run: expected }) => {
		const step = stepModelRun(at('sync'), answer, ctx);
		expect(step.effect).toEqual(effect);
		expect(step.drive.run).toMatchObject(expected);
	});

	it("a content-policy refusal asks for the model's charge rule, then says whether it charges", () => {
		const refused = stepModelRun(at('sync'), reply(400, errorBody('content_policy_violation')), ctx);
		expect(refused.effect).toEqual({ type: 'look-up-charge-rule' });
		expect(refused.drive.run.status).toBe('running');
		const { drive, effect } = stepModelRun(refused.drive, { type: 'charge-rule', rule: 'no' }, ctx);
		expect(effect).toEqual({ type: 'stop' });
		expect(drive.refusal).toBeUndefined();
		expect(drive.run.error?.message).toContain('content-policy grounds');
		expect(drive.run.error?.message).toMatch(/not charged/i);
	});

	it('a content-policy refusal whose charge rule the catalog does not know still fails with the refusal', () => {
		const refused = stepModelRun(at('status', {}), reply(400, errorBody('content_policy_violation')), ctx);
		const { drive } = stepModelRun(refused.drive, { type: 'charge-rule' }, ctx);
		expect(drive.run).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('content-policy grounds') } });
		expect(drive.run.error?.message).not.toMatch(/charged/i);
	});

	it('notes the committed spend of any answer', () => {
		const spend = { 'X-Committed-Spend-Limit': '2000', 'X-Committed-Spend-Current': '30', 'X-Committed-Spend-Remaining': '1970' };
		const { drive } = stepModelRun(at('sync'), reply(200, 'x', spend), ctx);
		expect(drive.run.spend).toEqual({ limitCents: 2000, currentCents: 30, remainingCents: 1970, at: 1000 });
	});

	it('after no answer, sends again under the same key a few times with backoff, then gives the choice to a person', () => {
		let drive = at('sync');
		const waits: number[] = [];
		for (let i = 0; i < 3; i++) {
			const step = stepModelRun(drive, noReply('timeout'), { ...ctx, random: 0.5 });
			expect(step.effect.type).toBe('wait');
			if (step.effect.type === 'wait') waits.push(step.effect.ms);
			expect(step.drive.run.phase).toMatch(/^No answer \(A timeout\.\)\. Sending again under the same key in \d+ s\.$/);
			drive = step.drive;
		}
		expect(waits).toEqual([750, 1250, 2250]);
		const last = stepModelRun(drive, noReply('timeout'), ctx);
		expect(last.effect).toEqual({ type: 'stop' });
		expect(last.drive.run).toMatchObject({
			status: 'failed',
			error: { kind: 'timeout', message: expect.stringContaining('Retry with the same key') }
		});
	});

	it.each(['aborted', 'unauthorized'] as const)('a %s error is not "no answer": no automatic resend', (kind) => {
		const step = stepModelRun(at('sync'), noReply(kind), ctx);
		expect(step.effect).toEqual({ type: 'stop' });
		expect(step.drive.run).toMatchObject({ status: 'failed', error: { kind } });
	});

	it('after a wait, checks the key again and asks for a connection', () => {
		expect(stepModelRun(at('sync'), { type: 'waited' }, ctx).effect).toEqual({ type: 'acquire-slot' });
	});
});

describe('a queued run', () => {
	const handle = {
		request_id: 'q1',
		status_url: queue.statusUrl,
		response_url: queue.responseUrl,
		cancel_url: queue.cancelUrl,
		status: 'IN_QUEUE',
		queue_position: 2
	};

	it('keeps the handle of a submission and polls it', () => {
		const { drive, effect } = stepModelRun(
			at('submit', { mode: 'queue', status: 'submitting' }),
			reply(201, handle, { 'Idempotent-Replayed': 'true' }),
			ctx
		);
		expect(effect).toEqual({ type: 'call', call: 'status' });
		expect(drive.run).toMatchObject({
			status: 'queued',
			requestId: 'q1',
			replayed: true,
			queue: { requestId: 'q1', position: 2, polls: 0 }
		});
	});

	it.each([
		{
			name: 'a handle without its URLs fails as a bad response',
			answer: reply(201, { request_id: 'q1' }),
			effect: { type: 'stop' },
			run: { status: 'failed', error: { kind: 'bad-response' } }
		},
		{
			name: '409 concurrency_limit_exceeded submits again after Retry-After',
			answer: reply(409, errorBody('concurrency_limit_exceeded'), { 'Retry-After': '2' }),
			effect: { type: 'wait', ms: 2000 },
			run: { phase: 'Submitting again under the same key in 2 s: the original call with this key is still running.' }
		},
		{
			name: 'no answer submits again',
			answer: noReply('network'),
			effect: { type: 'wait', ms: 500 },
			run: { phase: 'No answer; submitting again under the same key in 1 s.' }
		},
		{
			name: 'a refusal fails',
			answer: noReply('unauthorized'),
			effect: { type: 'stop' },
			run: { status: 'failed', error: { kind: 'unauthorized' } }
		},
		{
			name: '402 no credits',
			answer: reply(402, errorBody('insufficient_credits')),
			effect: { type: 'stop' },
			run: { status: 'failed', error: { kind: 'no-credits' } }
		}
	])('submit: $name', ({ answer, effect, run: expected }) => {
		const step = stepModelRun(at('submit', { mode: 'queue', status: 'submitting' }), answer, ctx);
		expect(step.effect).toEqual(effect);
		expect(step.drive.run).toMatchObject(expected);
	});

	it.each([
		{
			name: 'in the queue: position shown, asked again in 2 s',
			answer: reply(200, { ...handle, queue_position: 1 }),
			effect: { type: 'wait', ms: 2000 },
			run: { status: 'queued', queue: { position: 1, polls: 1, lastStatus: 'IN_QUEUE' } }
		},
		{
			name: 'started: no position, asked again after Retry-After',
			answer: reply(200, { ...handle, status: 'IN_PROGRESS', queue_position: undefined }, { 'Retry-After': '1' }),
			effect: { type: 'wait', ms: 1000 },
			run: { status: 'running', startedAt: 1000, queue: { lastStatus: 'IN_PROGRESS', polls: 1 } }
		},
		{
			name: 'COMPLETED: collects the result once',
			answer: reply(200, { ...handle, status: 'COMPLETED', queue_position: undefined }),
			effect: { type: 'call', call: 'collect' },
			run: { phase: 'Finished; collecting the result.', queue: { lastStatus: 'COMPLETED' } }
		},
		{
			name: 'the queue unavailable: asks again with backoff',
			answer: reply(503, errorBody('service_unavailable'), { 'Retry-After': '4' }),
			effect: { type: 'wait', ms: 4000 },
			run: { status: 'queued', phase: 'The queue is unavailable (HTTP 503); asking again in 4 s.' }
		},
		{
			name: 'no answer: asks again with backoff',
			answer: noReply('network'),
			effect: { type: 'wait', ms: 500 },
			run: { phase: 'Status unavailable (A network.); asking again in 1 s.' }
		},
		{
			name: 'an unknown request fails',
			answer: reply(404, errorBody('request_not_found')),
			effect: { type: 'stop' },
			run: { status: 'failed', error: { kind: 'not-found' } }
		}
	])('status: $name', ({ answer, effect, run: expected }) => {
		const step = stepModelRun(at('status'), answer, ctx);
		expect(step.effect).toEqual(effect);
		expect(step.drive.run).toMatchObject(expected);
	});

	it('a good poll forgets earlier misses', () => {
		const step = stepModelRun(at('status', {}, 3), reply(200, handle), ctx);
		expect(step.drive.misses).toBe(0);
	});

	it.each([
		{
			name: '202: not ready, asks again',
			answer: reply(202, handle, { 'Retry-After': '1' }),
			effect: { type: 'wait', ms: 1000 },
			status: 'queued'
		},
		{
			name: '200: stores the result',
			answer: reply(200, 'bytes'),
			effect: { type: 'store-result', reply: expect.anything() },
			status: 'queued'
		},
		{
			name: 'cancelled: ends as cancelled',
			answer: reply(410, errorBody('cancelled'), { 'X-Service-Error-Type': 'cancelled' }),
			effect: { type: 'stop' },
			status: 'cancelled'
		},
		{ name: 'no answer: tries again', answer: noReply('network'), effect: { type: 'wait', ms: 1000 }, status: 'queued' }
	])('collect: $name', ({ answer, effect, status }) => {
		const step = stepModelRun(at('collect'), answer, ctx);
		expect(step.effect).toEqual(effect);
		expect(step.drive.run.status).toBe(status);
	});
});

describe('the end of a run', () => {
	it('succeeds once the bytes are stored, with what the reply said', () => {
		const got = stepModelRun(
			at('sync', { replayed: false }),
			reply(200, 'x', { 'Idempotent-Replayed': 'true', 'X-Service-Credits-Used': '12' }),
			ctx
		);
		const result = { contentType: 'image/png', size: 1, bytesKey: 'b', assets: [] };
		const { drive, effect } = stepModelRun(got.drive, { type: 'stored', result }, { ...ctx, now: 2000 });
		expect(effect).toEqual({ type: 'stop' });
		expect(drive.run).toMatchObject({
			status: 'succeeded',
			result,
			replayed: true,
			creditsUsed: 12,
			requestId: 'req-1',
			finishedAt: 2000,
			phase: undefined
		});
	});

	it('keeps a warning when this device could not keep the bytes', () => {
		const result = { contentType: 'image/png', size: 1, bytesKey: '', assets: [] };
		const { drive } = stepModelRun(at('sync'), { type: 'stored', result, warning: 'Storage is full.' }, ctx);
		expect(drive.run).toMatchObject({ status: 'succeeded', phase: 'Storage is full.' });
	});

	it.each(['succeeded', 'failed', 'cancelled', 'unknown'] as const)('a %s run stays so, whatever arrives', (status) => {
		const step = stepModelRun(at('sync', { status }), reply(200, 'late'), ctx);
		expect(step).toEqual({ drive: at('sync', { status }), effect: { type: 'stop' } });
	});
});

describe("a person's commands", () => {
	it('composing offline puts the run in the outbox with its key', () => {
		expect(made(newModelRun({ profileId: 'p', modelId: 'm/x', mode: 'queue', body: {} }, { id: 'r', key: 'k' }, 5, true))).toMatchObject({
			idempotencyKey: 'k',
			keyCreatedAt: 5,
			outbox: true,
			phase: expect.stringContaining('In the outbox')
		});
	});

	it.each([{ body: [1] }, { body: 'text' }, { body: null }])('refuses a body that is not a JSON object: $body', ({ body }) => {
		const result = newModelRun({ profileId: 'p', modelId: 'm/x', mode: 'sync', body }, { id: 'r', key: 'k' }, 5, false);
		expect(result).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: 'The model input must be a JSON object.' } });
	});

	it("leaving the outbox starts the key's 24-hour clock at its first use", () => {
		const waiting = made(newModelRun({ profileId: 'p', modelId: 'm/x', mode: 'queue', body: {} }, { id: 'r', key: 'k' }, 5, true));
		expect(releasedFromOutbox(waiting, 70)).toMatchObject({ outbox: false, keyCreatedAt: 70, phase: undefined, idempotencyKey: 'k' });
	});

	it('a run that cannot be sent (its profile is gone) ends failed with the reason, no phase left', () => {
		const error = { kind: 'invalid-profile' as const, message: 'This profile no longer exists.' };
		expect(notSent(run({ phase: 'Submitting to the queue.' }), error, 8)).toMatchObject({
			status: 'failed',
			phase: undefined,
			finishedAt: 8,
			error
		});
	});

	it('stopping to wait is its own kind, not a timeout', () => {
		expect(stoppedWaiting(run({ status: 'running' }), 9)).toMatchObject({
			status: 'unknown',
			stoppedWaiting: true,
			finishedAt: 9,
			error: { kind: 'stopped-waiting' }
		});
	});

	it.each([
		{
			name: 'a synchronous run goes back to sending',
			before: run({ status: 'unknown', stoppedWaiting: true, phase: 'x' }),
			now: 10,
			status: 'submitting'
		},
		{ name: 'a queued run goes back to polling', before: run({ status: 'failed', queue }), now: 10, status: 'queued' },
		{ name: 'an expired key ends as outcome unknown', before: run({ status: 'failed' }), now: DAY, status: 'unknown' }
	])('retry: $name', ({ before, now, status }) => {
		const after = retried(before, now);
		expect(after.status).toBe(status);
		if (status !== 'unknown') expect(after).not.toHaveProperty('stoppedWaiting');
		else expect(after.error?.kind).toBe('outcome-unknown');
	});

	it.each([
		{ status: 202 as const, body: 'CANCELLATION_REQUESTED', cancel: 'requested' },
		{ status: 202 as const, body: 'ALREADY_COMPLETED', cancel: 'already-completed' },
		{ status: 409 as const, body: undefined, cancel: 'already-completed' }
	])('cancel answered $status $body', ({ status, body, cancel }) => {
		expect(cancelAnswered({ ...run(), queue }, queue, { status, cancelStatus: body }).queue?.cancel).toBe(cancel);
	});

	it('a cancel answer lands on the run as saved now, keeping the handle it was sent for', () => {
		const now = run({ mode: 'queue', status: 'queued', phase: 'x' });
		const after = cancelAnswered(now, queue, { status: 202, cancelStatus: 'CANCELLATION_REQUESTED' });
		expect(after.queue).toEqual({ ...queue, cancel: 'requested' });
		expect(after.phase).toMatch(/Cancel requested/);
	});

	it('only a queued request can be cancelled', () => {
		expect(NOT_CANCELLABLE).toMatchObject({ kind: 'invalid-input', message: expect.stringContaining('stop being waited for') });
	});
});
