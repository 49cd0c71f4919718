/**
 * Router error types in words a person can act on. Branch on `error_type` (header or body); an
 * unknown value is handled as `internal_error` for control flow while its raw value is shown.
 */
import { isKnownRouterErrorType, type KnownRouterErrorType } from '../protocol/router-api';
import { policyCharge } from './model-catalog';
import type { AppError } from '../../core/protocol/errors';

/** The type used for control flow: a known type, or `internal_error` for anything new. */
export function controlType(errorType: string | undefined): KnownRouterErrorType | undefined {
	if (errorType === undefined) return undefined;
	return isKnownRouterErrorType(errorType) ? errorType : 'internal_error';
}

export interface ErrorContext {
	/** What was asked: a run (the default, whose inputs an `invalid_input` is about) or a catalog page. */
	asked?: 'run' | 'catalog-page';
	/** The model's `charges_on_policy_rejection`, for a content-policy refusal. */
	chargesOnPolicyRejection?: string;
	retryAfterSeconds?: number;
}

const WORDS: Record<KnownRouterErrorType, string> = {
	invalid_input: 'The service rejected the request before it reached the model. Check the inputs marked below.',
	content_policy_violation: 'The provider refused this input on content-policy grounds. Change the prompt or inputs and try again.',
	provider_error: 'The provider failed or returned something that is not a result. Trying again later may work.',
	provider_timeout: 'The provider missed its own deadline. Trying again later may work.',
	insufficient_credits: 'The workspace has no credits left. Add credits to your account, then run again.',
	model_not_found: 'The service has no runnable model under this id. It may have been removed from the catalog.',
	unauthorized: 'The API key was refused. Check it in Settings.',
	forbidden: 'Your key is valid but not entitled to this model or operation. Ask the account owner for access.',
	concurrency_limit_exceeded: 'The workspace has the maximum calls in flight. Wait for some to finish.',
	client_disconnected: 'The connection closed before the result arrived.',
	internal_error: 'The service failed while handling the request.',
	deadline_exceeded: 'The service stopped waiting at its own time limit; the run may continue.',
	not_enabled: 'The model router is not enabled for this account. Ask the provider to switch it on.',
	service_unavailable: 'The service is temporarily unavailable. Try again shortly.',
	rate_limited: 'The request allowance for this window is spent. Wait for the window to roll, then try again.',
	cancelled: 'The request was cancelled. That alone says nothing about whether it was charged.',
	queue_timeout: 'The request waited too long in the queue without starting. Submit it again when the service is less busy.',
	request_not_found: 'The service no longer knows this request (it may be past its retention).'
};

/** A catalog walk sends no inputs: its `invalid_input` is a page link (cursor) the service no longer takes. */
const CATALOG_PAGE_REFUSED =
	'The service refused the link to the next page of the catalog (a cursor it no longer takes, e.g. after the catalog was rebuilt). Load the catalog again from the start.';

/** Words for an error type, with the wait and the model's charge rule where they matter. */
export function errorWords(errorType: string | undefined, context: ErrorContext = {}): string | undefined {
	const type = controlType(errorType);
	if (!type) return undefined;
	let words = type === 'invalid_input' && context.asked === 'catalog-page' ? CATALOG_PAGE_REFUSED : WORDS[type];
	if (type === 'rate_limited' && context.retryAfterSeconds !== undefined)
		words += ` The service asks to wait ${context.retryAfterSeconds} s.`;
	if (type === 'content_policy_violation' && context.chargesOnPolicyRejection !== undefined)
		words += ` ${policyCharge({ charges_on_policy_rejection: context.chargesOnPolicyRejection }).words}`;
	if (errorType !== type) words += ` (The service named a new error type, "${errorType}".)`;
	return words;
}

/** The error with the router's words for its type (status, request id and raw type kept). */
export function withRouterWords(error: AppError, context: ErrorContext = {}): AppError {
	const words = errorWords(error.errorType, context);
	if (!words) return error;
	// What the body looked like (a proxy page, cut-off JSON) stays part of the explanation.
	const keep = error.kind === 'html-response' || error.kind === 'bad-response';
	return { ...error, message: keep ? `${words} ${error.message}` : words };
}

/** Whether an error means a call got no answer at all, so the same key may be sent again. */
export function noAnswer(error: AppError): boolean {
	return error.kind === 'network' || error.kind === 'cors' || error.kind === 'timeout';
}
