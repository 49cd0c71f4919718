/** The shapes of a model run's drive: where it is, the answers it takes, the effects it asks for. */
import type { AppError } from '../../core/protocol/errors';
import type { RawResponse } from '../../core/rules/http-response';
import type { ModelResult, ModelRun } from './model-run';

/** The four calls of a run: a synchronous run, or a queued one's submit, status polls and collect. */
export type ModelCall = 'sync' | 'submit' | 'status' | 'collect';

export interface ModelDrive {
	run: ModelRun;
	/** The call being made (or to be made again after a wait). */
	call: ModelCall;
	/** Retries of this call so far without a usable answer (no answer, or the queue unavailable). */
	misses: number;
	/** What a successful reply said about the result, kept until its bytes are stored. */
	success?: Pick<ModelRun, 'replayed' | 'requestId' | 'creditsUsed'>;
	/** A content-policy refusal, kept while the model's charge rule is looked up. */
	refusal?: RawResponse;
}

export type ModelAnswer =
	| { type: 'begin' }
	| { type: 'slot-busy'; size: number }
	| { type: 'slot-acquired' }
	/** An HTTP answer. */
	| { type: 'reply'; raw: RawResponse }
	/** The model's `charges_on_policy_rejection` (absent when the catalog does not say), for a policy refusal. */
	| { type: 'charge-rule'; rule?: string }
	| { type: 'no-reply'; error: AppError }
	| { type: 'waited' }
	/** The result's bytes are saved; `warning` says why they could not be kept on this device. */
	| { type: 'stored'; result: ModelResult; warning?: string };

export type ModelEffect =
	/** Take a connection; `queued`: the wait for one is already said, take the next free one. */
	| { type: 'acquire-slot'; queued?: boolean }
	| { type: 'call'; call: ModelCall }
	/** A content-policy refusal names the model's charge rule: look it up in the catalog. */
	| { type: 'look-up-charge-rule' }
	| { type: 'wait'; ms: number }
	/** Save the successful reply (its bytes are the result). */
	| { type: 'store-result'; reply: RawResponse }
	| { type: 'stop' };

export interface ModelStep {
	drive: ModelDrive;
	effect: ModelEffect;
}

export interface ModelContext {
	now: number;
	/** In [0, 1), for the backoff's jitter. */
	random: number;
	/** The router's own origin: the only one queue URLs may point at. */
	origin: string;
}
