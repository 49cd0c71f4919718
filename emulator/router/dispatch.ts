/**
 * One provider dispatch: counted, timed like a real provider, then either the native output, a
 * provider refusal, or a failure forced by input. Charges are counted here too, per key, so tests can
 * prove a key was never charged twice. The run does not depend on any HTTP connection.
 */
import type { CatalogModel, ModelKind } from './catalog';
import type { RouterContext } from './context';
import { ERROR_STATUS, errorHeaders } from './errors';
import { isKnownRouterErrorType } from '../../src/lib/models/protocol/router-api';
import { findTrigger } from './provider/triggers';
import { PROVIDER_CDN_LIFETIME_SECONDS, produceOutput } from './provider/outputs';
import type { StoredResponse } from './idempotency';

export type { StoredResponse };

const SPEED: Record<ModelKind, number> = {
	'text-to-image': 1,
	'image-to-image': 1,
	inpainting: 1,
	lora: 1,
	upscale: 0.8,
	video: 2,
	'image-to-video': 2,
	tts: 0.5,
	llm: 0.5,
	unauthored: 1
};

export function providerDurationMs(ctx: RouterContext, model: CatalogModel): number {
	return Math.round(ctx.router.settings.providerMs * SPEED[model.kind]);
}

export function errorResponse(status: number, errorType: string, detail: string, headers: Record<string, string> = {}): StoredResponse {
	return {
		status,
		contentType: 'application/json; charset=utf-8',
		headers: { 'X-Service-Error-Type': errorType, ...headers },
		body: Buffer.from(JSON.stringify({ detail, error_type: errorType })),
		errorType,
		charged: false,
		transient: false
	};
}

const FAILURE_DETAIL: Record<string, string> = {
	content_policy_violation: 'The provider refused the input on content-policy grounds.',
	provider_error: 'The provider failed to produce a result.',
	provider_timeout: 'The provider did not answer within its own deadline.',
	internal_error: 'The router failed while handling the provider result.',
	client_disconnected: 'The caller closed the connection before the result.'
};

function bump(map: Record<string, number>, key: string): void {
	map[key] = (map[key] ?? 0) + 1;
}

export function countDispatch(ctx: RouterContext, counterKey: string): void {
	bump(ctx.state.counters.dispatches, counterKey);
}

export function countCharge(ctx: RouterContext, counterKey: string): void {
	bump(ctx.state.counters.charges, counterKey);
}

/**
 * Runs the provider; `dispatched` has already been counted by the caller at the moment of dispatch.
 * `runId` names the run to the provider hold (release and cancel find it by this id).
 */
export async function runProvider(
	ctx: RouterContext,
	model: CatalogModel,
	input: Record<string, unknown>,
	counterKey: string,
	runId: string
): Promise<StoredResponse> {
	if ((await ctx.router.providerHold.wait(runId, model.id)) === 'reset')
		return errorResponse(500, 'internal_error', 'The emulator was reset while this run was held at the provider.');
	await new Promise((r) => setTimeout(r, providerDurationMs(ctx, model)));
	const trigger = findTrigger(input);
	if (trigger) {
		const known = isKnownRouterErrorType(trigger);
		const status = known ? ERROR_STATUS[trigger] : 500;
		const headers = known ? errorHeaders(trigger) : {};
		const response = errorResponse(status, trigger, FAILURE_DETAIL[trigger] ?? `The run ended with ${trigger}.`, headers);
		if (trigger === 'content_policy_violation' && model.billing.charges_on_policy_rejection !== 'no') {
			response.charged = true;
		}
		response.transient = trigger === 'provider_error' || trigger === 'provider_timeout';
		if (response.charged) countCharge(ctx, counterKey);
		return response;
	}
	const produced = await produceOutput(ctx, model, input);
	if (produced.kind === 'rejected') {
		return {
			status: 422,
			contentType: 'application/json; charset=utf-8',
			headers: { 'X-Service-Error-Type': 'invalid_input', 'X-Service-Upstream-Status': '422' },
			body: Buffer.from(JSON.stringify({ detail: produced.entries })),
			errorType: 'invalid_input',
			charged: false,
			transient: false
		};
	}
	countCharge(ctx, counterKey);
	const stored: StoredResponse = {
		status: 200,
		contentType: produced.mediaType,
		headers: {},
		body: produced.body,
		charged: true,
		transient: false
	};
	if (model.delivery === 'provider-cdn' && produced.mediaType === 'application/json')
		stored.replayableUntil = ctx.state.now() + PROVIDER_CDN_LIFETIME_SECONDS * 1000;
	return stored;
}
