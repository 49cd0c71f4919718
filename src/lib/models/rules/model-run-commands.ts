/**
 * A person's commands on a model run (start, release from the outbox, stop waiting, retry, cancel),
 * as pure changes of the run. The drive itself is `model-run-reducer.ts`.
 */
import { isObject } from '../../core/protocol/json';
import { appError, fail, ok, type AppError, type Result } from '../../core/protocol/errors';
import { KEY_EXPIRED, outcomeUnknown } from './model-run-reducer';
import { keyExpired, MODEL_RUN_VERSION, OUTBOX_PHASE, titleOf, type ModelRun, type QueueHandle } from './model-run';

/** A new run with its own key; composed offline, it waits in the outbox. The body must be a JSON object. */
export function newModelRun(
	input: Pick<ModelRun, 'profileId' | 'modelId' | 'mode' | 'body' | 'seeds' | 'sweep'>,
	ids: { id: string; key: string },
	now: number,
	offline: boolean
): Result<ModelRun> {
	const { profileId, modelId, mode, body, seeds, sweep } = input;
	if (!isObject(body)) return fail(appError('invalid-input', 'The model input must be a JSON object.'));
	return ok({
		schemaVersion: MODEL_RUN_VERSION,
		kind: 'model',
		id: ids.id,
		profileId,
		modelId,
		title: titleOf(modelId, body),
		mode,
		body,
		idempotencyKey: ids.key,
		keyCreatedAt: now,
		status: 'submitting',
		attempts: 0,
		replayed: false,
		createdAt: now,
		...(seeds ? { seeds } : {}),
		...(sweep ? { sweep } : {}),
		...(offline ? { outbox: true, phase: OUTBOX_PHASE } : {})
	});
}

export const STOPPED_WAITING =
	'You stopped waiting. The provider may still finish this run and charge for it; "Retry with the same key" collects its result without starting a new run.';

/** Released from the outbox: about to be sent, so the key's 24-hour clock starts now, at its first use. */
export function releasedFromOutbox(run: ModelRun, now: number): ModelRun {
	return { ...run, outbox: false, phase: undefined, keyCreatedAt: now };
}

/** The run could not be sent at all (its profile or key is gone): it ends failed, saying why. */
export function notSent(run: ModelRun, error: AppError, now: number): ModelRun {
	return { ...run, status: 'failed', phase: undefined, finishedAt: now, error };
}

/** "Stop waiting": the run ends here as unknown; the provider may still finish and charge. */
export function stoppedWaiting(run: ModelRun, now: number): ModelRun {
	const error = appError('stopped-waiting', STOPPED_WAITING);
	return { ...run, status: 'unknown', stoppedWaiting: true, phase: undefined, finishedAt: now, error };
}

/** "Retry with the same key": unknown after an expired key, otherwise back to sending (or polling). */
export function retried(run: ModelRun, now: number): ModelRun {
	if (keyExpired(run, now)) return outcomeUnknown(run, now, undefined, KEY_EXPIRED);
	const { error: _e, stoppedWaiting: _s, phase: _p, ...rest } = run;
	return { ...rest, status: run.queue ? 'queued' : 'submitting' };
}

export const NOT_CANCELLABLE = appError(
	'invalid-input',
	'Only a queued request can be cancelled; a synchronous run can only stop being waited for.'
);

/**
 * A cancel answer (202, or 409 when the request had already finished), applied to the run as it is
 * saved now; `queue` is the handle the cancel was sent for.
 */
export function cancelAnswered(
	run: ModelRun,
	queue: QueueHandle,
	answer: { status: 202 | 409; cancelStatus?: string | undefined }
): ModelRun {
	const already = answer.status === 409 || answer.cancelStatus === 'ALREADY_COMPLETED';
	return {
		...run,
		queue: { ...(run.queue ?? queue), cancel: already ? 'already-completed' : 'requested' },
		phase: already
			? 'The request had already finished; its result stands.'
			: 'Cancel requested. A run already at the provider may still finish and be charged.'
	};
}
