/**
 * How a model run moves: a pure function of where the run is and one answer (a reply, no reply, a
 * wait that ended, a free connection, saved result bytes) giving the next state and the one effect
 * the driver performs next (call, wait, store the result, or stop). The spec's idempotency rules
 * live here: one key per run, reused by every attempt; only the explicit hints retry (409
 * `concurrency_limit_exceeded` and 504 with Retry-After); a call that got no answer is sent again
 * under the same key a few times; a consumed or expired key ends as "outcome unknown".
 */
import {
	decodeErrorType,
	decodeQueueStatus,
	decodeQueueSubmit,
	decodeValidationErrors,
	decodeValidationMessage
} from '../protocol/router-decode';
import { isObject } from '../../core/protocol/json';
import { ROUTER_HEADERS } from '../protocol/router-api';
import { backoffDelay, type BackoffPolicy } from '../../core/rules/backoff';
import { appError, fail, ok, type AppError, type Result } from '../../core/protocol/errors';
import { requestIdOf, responseError, type RawResponse } from '../../core/rules/http-response';
import { controlType, noAnswer, withRouterWords } from './model-errors';
import { unreadableResult } from './result-readable';
import {
	decideSync,
	isModelTerminal,
	keyExpired,
	MAX_BLIND_RETRIES,
	MODEL_RUN_VERSION,
	OUTBOX_PHASE,
	titleOf,
	OUTCOME_UNKNOWN,
	queueFinished,
	retryAfterSeconds,
	spendOf,
	type ModelResult,
	type ModelRun,
	type QueueHandle
} from './model-run';
import type { ModelAnswer, ModelCall, ModelContext, ModelDrive, ModelStep } from './model-drive';

/** Above the service's 10-minute hold, so its typed 504 and request id arrive first. */
export const SYNC_TIMEOUT_MS = 11 * 60 * 1000;
export const POLL_DEFAULT_MS = 2000;
export const POLL_MIN_MS = 250;
const NO_ANSWER_BACKOFF: BackoffPolicy = { baseMs: 1000, maxMs: 15_000 };
const STATUS_BACKOFF: BackoffPolicy = { baseMs: 1000, maxMs: 30_000 };
const COLLECT_BACKOFF: BackoffPolicy = { baseMs: 2000, maxMs: 30_000 };
export const KEY_EXPIRED = 'The idempotency key is past its 24-hour retention, so a retry could start a second billable run.';

const seconds = (ms: number) => Math.ceil(ms / 1000);

// ---- the run's endings and small moves ---------------------------------------------------------

const stop = (drive: ModelDrive): ModelStep => ({ drive, effect: { type: 'stop' } });
const call = (drive: ModelDrive, c: ModelCall): ModelStep => ({ drive: { ...drive, call: c }, effect: { type: 'call', call: c } });
const patch = (drive: ModelDrive, p: Partial<ModelRun>): ModelDrive => ({ ...drive, run: { ...drive.run, ...p } });

function finish(drive: ModelDrive, p: Partial<ModelRun> & Pick<ModelRun, 'status'>, now: number): ModelStep {
	return stop(patch(drive, { phase: undefined, finishedAt: now, ...p }));
}

/** The one retry: say why and when in the phase (when there is something to say), then wait. */
function retryIn(drive: ModelDrive, ms: number, phase?: string, counts = false): ModelStep {
	const next = counts ? { ...drive, misses: drive.misses + 1 } : drive;
	return { drive: phase === undefined ? next : patch(next, { phase }), effect: { type: 'wait', ms } };
}

/** The same, with the delay from a backoff policy and the number of misses so far. */
function backOff(
	drive: ModelDrive,
	policy: BackoffPolicy,
	ctx: ModelContext,
	phase: (s: number) => string,
	attempt = drive.misses
): ModelStep {
	const ms = backoffDelay(attempt, policy, ctx.random);
	return retryIn(drive, ms, phase(seconds(ms)), true);
}

/** Ends a run as "outcome unknown": the key was consumed or expired after the call was sent. */
export function outcomeUnknown(run: ModelRun, now: number, raw?: RawResponse, why = OUTCOME_UNKNOWN): ModelRun {
	const error = appError(
		'outcome-unknown',
		why,
		raw ? { status: raw.status, requestId: requestIdOf(raw), errorType: decodeErrorType(raw) } : {}
	);
	return { ...run, status: 'unknown', phase: undefined, finishedAt: now, error };
}

function failed(drive: ModelDrive, raw: RawResponse, chargeRule: string | undefined, now: number): ModelStep {
	const retryAfter = retryAfterSeconds(raw.header(ROUTER_HEADERS.retryAfter));
	const error = withRouterWords(responseError(raw, 'router'), {
		...(chargeRule !== undefined ? { chargesOnPolicyRejection: chargeRule } : {}),
		...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {})
	});
	const status = error.errorType === 'cancelled' ? 'cancelled' : 'failed';
	return finish(drive, { status, error, requestId: error.requestId ?? drive.run.requestId }, now);
}

function fieldErrors(drive: ModelDrive, raw: RawResponse, now: number): ModelStep {
	const entries = decodeValidationErrors(raw.body);
	// Only entries whose loc goes past `body` point at a field; a text `detail` points at none.
	const marksFields = entries.some((e) => e.loc.length > (e.loc[0] === 'body' ? 1 : 0));
	const said = decodeValidationMessage(raw.body);
	const message = marksFields
		? 'The service rejected some inputs before calling the model (not billed). See the marked fields.'
		: `The service rejected the inputs before calling the model (not billed)${said ? `: ${said}` : '.'}${
				said && !/[.!?]$/.test(said) ? '.' : ''
			}${entries.length ? ' See the messages above the form.' : ''}`;
	const error = appError('invalid-input', message, {
		status: raw.status,
		requestId: requestIdOf(raw),
		errorType: raw.header(ROUTER_HEADERS.errorType) ?? 'invalid_input'
	});
	return finish(drive, { status: 'failed', error, fieldErrors: entries }, now);
}

function succeeded(drive: ModelDrive, raw: RawResponse, now: number): ModelStep {
	const credits = raw.header(ROUTER_HEADERS.creditsUsed);
	const success = {
		replayed: drive.run.replayed || raw.header(ROUTER_HEADERS.idempotentReplayed) === 'true',
		requestId: requestIdOf(raw) ?? drive.run.requestId,
		...(credits !== null && /^\d+$/.test(credits.trim()) ? { creditsUsed: Number(credits) } : {})
	};
	const unreadable = unreadableResult(raw, drive.call);
	if (unreadable) return finish(drive, { status: 'failed', error: unreadable, ...success }, now);
	return { drive: { ...drive, success }, effect: { type: 'store-result', reply: raw } };
}

/** A URL the service returned may carry the key only when it is on the router's own origin. */
export function ownOrigin(origin: string, url: string): AppError | undefined {
	let actual = '';
	try {
		actual = new URL(url).origin;
	} catch {
		return appError('bad-response', `The service returned "${url.slice(0, 80)}", which is not an absolute URL.`);
	}
	return actual === origin
		? undefined
		: appError('origin-refused', `The service pointed at ${actual}, which is not the router's own origin; the key is not sent there.`);
}

// ---- where each call starts --------------------------------------------------------------------

function startSync(drive: ModelDrive, now: number): ModelStep {
	if (keyExpired(drive.run, now)) return stop({ ...drive, run: outcomeUnknown(drive.run, now, undefined, KEY_EXPIRED) });
	return { drive: { ...drive, call: 'sync' }, effect: { type: 'acquire-slot' } };
}

function startSubmit(drive: ModelDrive): ModelStep {
	return call(patch(drive, { attempts: drive.run.attempts + 1, phase: 'Submitting to the queue.' }), 'submit');
}

function startPoll(drive: ModelDrive, ctx: ModelContext): ModelStep {
	const queue = drive.run.queue;
	if (!queue) return stop(drive);
	const guard = ownOrigin(ctx.origin, queue.statusUrl) ?? ownOrigin(ctx.origin, queue.responseUrl);
	if (guard) return finish(drive, { status: 'failed', error: guard }, ctx.now);
	return call(drive, 'status');
}

function again(drive: ModelDrive, ctx: ModelContext): ModelStep {
	switch (drive.call) {
		case 'sync':
			return startSync(drive, ctx.now);
		case 'submit':
			return startSubmit(drive);
		case 'status':
			return startPoll(drive, ctx);
		case 'collect':
			return call(drive, 'collect');
	}
}

// ---- what each call's answer means -------------------------------------------------------------

function onSyncReply(drive: ModelDrive, raw: RawResponse, chargeRule: string | undefined, ctx: ModelContext): ModelStep {
	const spend = spendOf(raw.header, ctx.now);
	const noted = spend ? patch(drive, { spend }) : drive;
	const decision = decideSync({
		status: raw.status,
		errorType: decodeErrorType(raw),
		retryAfterSeconds: retryAfterSeconds(raw.header(ROUTER_HEADERS.retryAfter))
	});
	switch (decision.kind) {
		case 'success':
			return succeeded(noted, raw, ctx.now);
		case 'retry':
			return retryIn(
				patch(noted, { requestId: requestIdOf(raw) }),
				decision.afterMs,
				`Retrying under the same key in ${seconds(decision.afterMs)} s: ${decision.why}.`
			);
		case 'outcome-unknown':
			return stop({ ...noted, run: outcomeUnknown(noted.run, ctx.now, raw) });
		case 'field-errors':
			return fieldErrors(noted, raw, ctx.now);
		case 'failed':
			return failed(noted, raw, chargeRule, ctx.now);
	}
}

function onSubmitReply(drive: ModelDrive, raw: RawResponse, chargeRule: string | undefined, ctx: ModelContext): ModelStep {
	if (raw.status === 201 || raw.status === 200) {
		const handle = decodeQueueSubmit(raw.body);
		if (!handle) {
			const error = appError('bad-response', 'The queue answered without a request id and its three URLs.', {
				status: raw.status,
				requestId: requestIdOf(raw)
			});
			return finish(drive, { status: 'failed', error }, ctx.now);
		}
		const queue: QueueHandle = {
			requestId: handle.request_id,
			statusUrl: handle.status_url,
			responseUrl: handle.response_url,
			cancelUrl: handle.cancel_url,
			polls: 0,
			...(handle.queue_position !== undefined ? { position: handle.queue_position } : {}),
			lastStatus: handle.status
		};
		const replayed = raw.header(ROUTER_HEADERS.idempotentReplayed) === 'true';
		const queued = patch(drive, { queue, requestId: handle.request_id, status: 'queued', phase: undefined, replayed });
		return startPoll({ ...queued, misses: 0 }, ctx);
	}
	const decision = decideSync({
		status: raw.status,
		errorType: decodeErrorType(raw),
		retryAfterSeconds: retryAfterSeconds(raw.header(ROUTER_HEADERS.retryAfter))
	});
	switch (decision.kind) {
		case 'retry':
			return retryIn(drive, decision.afterMs, `Submitting again under the same key in ${seconds(decision.afterMs)} s: ${decision.why}.`);
		case 'outcome-unknown':
			return stop({ ...drive, run: outcomeUnknown(drive.run, ctx.now, raw) });
		case 'field-errors':
			return fieldErrors(drive, raw, ctx.now);
		default:
			return failed(drive, raw, chargeRule, ctx.now);
	}
}

function onStatusReply(drive: ModelDrive, raw: RawResponse, chargeRule: string | undefined, ctx: ModelContext): ModelStep {
	const retryAfter = retryAfterSeconds(raw.header(ROUTER_HEADERS.retryAfter));
	if (raw.status !== 200) {
		if (raw.status < 500) return failed(drive, raw, chargeRule, ctx.now);
		const ms = Math.max((retryAfter ?? 0) * 1000, backoffDelay(drive.misses, STATUS_BACKOFF, ctx.random));
		return retryIn(drive, ms, `The queue is unavailable (HTTP ${raw.status}); asking again in ${seconds(ms)} s.`, true);
	}
	const facts = decodeQueueStatus(raw.body);
	const { position: _old, ...kept } = drive.run.queue!;
	const queue: QueueHandle = {
		...kept,
		polls: kept.polls + 1,
		lastStatus: facts.status ?? '',
		...(facts.queue_position !== undefined ? { position: facts.queue_position } : {})
	};
	const answered = { ...drive, misses: 0 };
	if (queueFinished(facts.status)) return call(patch(answered, { queue, phase: 'Finished; collecting the result.' }), 'collect');
	const started = facts.queue_position === undefined;
	const polled = patch(answered, {
		queue,
		status: started ? 'running' : 'queued',
		startedAt: started ? (drive.run.startedAt ?? ctx.now) : drive.run.startedAt
	});
	return retryIn(polled, Math.max(POLL_MIN_MS, retryAfter !== undefined ? retryAfter * 1000 : POLL_DEFAULT_MS));
}

function onCollectReply(drive: ModelDrive, raw: RawResponse, chargeRule: string | undefined, ctx: ModelContext): ModelStep {
	const retryAfter = retryAfterSeconds(raw.header(ROUTER_HEADERS.retryAfter));
	if (raw.status === 202) return retryIn(drive, Math.max(POLL_MIN_MS, (retryAfter ?? 2) * 1000));
	if (raw.status === 200) return succeeded(drive, raw, ctx.now);
	return failed(drive, raw, chargeRule, ctx.now);
}

function onReply(drive: ModelDrive, raw: RawResponse, chargeRule: string | undefined, ctx: ModelContext): ModelStep {
	switch (drive.call) {
		case 'sync':
			return onSyncReply(drive, raw, chargeRule, ctx);
		case 'submit':
			return onSubmitReply(drive, raw, chargeRule, ctx);
		case 'status':
			return onStatusReply(drive, raw, chargeRule, ctx);
		case 'collect':
			return onCollectReply(drive, raw, chargeRule, ctx);
	}
}

function onNoReply(drive: ModelDrive, error: AppError, ctx: ModelContext): ModelStep {
	switch (drive.call) {
		case 'sync':
			if (!noAnswer(error) || drive.misses >= MAX_BLIND_RETRIES) {
				const message = `${error.message} The run may still have happened: "Retry with the same key" asks again without starting a new run.`;
				return finish(drive, { status: 'failed', error: { ...error, message } }, ctx.now);
			}
			return backOff(drive, NO_ANSWER_BACKOFF, ctx, (s) => `No answer (${error.message}). Sending again under the same key in ${s} s.`);
		case 'submit':
			if (!noAnswer(error) || drive.misses >= MAX_BLIND_RETRIES) return finish(drive, { status: 'failed', error }, ctx.now);
			return backOff(drive, NO_ANSWER_BACKOFF, ctx, (s) => `No answer; submitting again under the same key in ${s} s.`);
		case 'status':
			return backOff(drive, STATUS_BACKOFF, ctx, (s) => `Status unavailable (${error.message}); asking again in ${s} s.`);
		case 'collect':
			return backOff(drive, COLLECT_BACKOFF, ctx, (s) => `Collecting failed (${error.message}); trying again in ${s} s.`, 0);
	}
}

/** Where a run starts (or resumes after a reload): its mode and whether it already has a queue handle. */
export function beginDrive(run: ModelRun): ModelDrive {
	return { run, call: run.mode === 'sync' ? 'sync' : run.queue ? 'status' : 'submit', misses: 0 };
}

/** A run whose driver stopped on something unforeseen ends failed, saying so. */
export function crashed(run: ModelRun, error: unknown): ModelRun {
	const failure = appError('unknown', `The run stopped on an unexpected error: ${String(error)}`);
	return { ...run, status: 'failed', phase: undefined, error: failure };
}

/** The next state of a run and the one effect to perform, for one answer. */
export function stepModelRun(drive: ModelDrive, answer: ModelAnswer, ctx: ModelContext): ModelStep {
	if (isModelTerminal(drive.run.status)) return stop(drive);
	switch (answer.type) {
		case 'begin':
		case 'waited':
			return again(drive, ctx);
		case 'slot-busy':
			return {
				drive: patch(drive, { phase: `Waiting for a free connection: ${answer.size} synchronous calls are already held open.` }),
				effect: { type: 'acquire-slot', queued: true }
			};
		case 'slot-acquired': {
			const run = drive.run;
			const phase = run.attempts > 0 ? 'Sent again under the same key; waiting for the model.' : 'Waiting for the model.';
			return call(patch(drive, { status: 'running', attempts: run.attempts + 1, startedAt: run.startedAt ?? ctx.now, phase }), 'sync');
		}
		case 'no-reply':
			return onNoReply(drive, answer.error, ctx);
		case 'reply':
			if (controlType(decodeErrorType(answer.raw)) === 'content_policy_violation')
				return { drive: { ...drive, refusal: answer.raw }, effect: { type: 'look-up-charge-rule' } };
			return onReply(drive, answer.raw, undefined, ctx);
		case 'charge-rule': {
			const { refusal, ...rest } = drive;
			return refusal ? onReply(rest, refusal, answer.rule, ctx) : stop(drive);
		}
		case 'stored':
			return finish(
				drive,
				{ status: 'succeeded', result: answer.result, ...drive.success, ...(answer.warning ? { phase: answer.warning } : {}) },
				ctx.now
			);
	}
}
