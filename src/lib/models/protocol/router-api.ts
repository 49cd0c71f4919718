/**
 * Wire types of the model-routing service (spec B), shared by the app, the emulator and the tests.
 * Pure TypeScript: no DOM, no Node. Shapes only; parsing untrusted bodies into these lives elsewhere.
 */
import { SERVICE_HEADERS } from '../../core/protocol/service-headers';

/** Every error type the spec lists. The set is open: clients must tolerate values not in this list. */
export const ROUTER_ERROR_TYPES = [
	// request-level
	'invalid_input',
	'content_policy_violation',
	'provider_error',
	'provider_timeout',
	'insufficient_credits',
	'model_not_found',
	// transport-level
	'unauthorized',
	'forbidden',
	'concurrency_limit_exceeded',
	'client_disconnected',
	'internal_error',
	'deadline_exceeded',
	'not_enabled',
	'service_unavailable',
	'rate_limited',
	'cancelled',
	'queue_timeout',
	'request_not_found'
] as const;

export type KnownRouterErrorType = (typeof ROUTER_ERROR_TYPES)[number];
/** Open classification: a value outside the list is kept verbatim and handled as `internal_error`. */
export type RouterErrorType = KnownRouterErrorType | (string & {});

export function isKnownRouterErrorType(value: string): value is KnownRouterErrorType {
	return (ROUTER_ERROR_TYPES as readonly string[]).includes(value);
}

/** Response header names, lower-cased as fetch's `Headers` reads them. */
export const ROUTER_HEADERS = {
	...SERVICE_HEADERS,
	upstreamStatus: 'x-service-upstream-status',
	creditsUsed: 'x-service-credits-used',
	spendLimit: 'x-committed-spend-limit',
	spendCurrent: 'x-committed-spend-current',
	spendRemaining: 'x-committed-spend-remaining',
	idempotentReplayed: 'idempotent-replayed',
	retryAfter: 'retry-after',
	etag: 'etag',
	cacheControl: 'cache-control',
	contentTypeOptions: 'x-content-type-options'
} as const;

/** Request header names. */
export const ROUTER_REQUEST_HEADERS = {
	apiKey: 'X-API-Key',
	authorization: 'Authorization',
	idempotencyKey: 'Idempotency-Key',
	ifNoneMatch: 'If-None-Match'
} as const;

export const ROUTER_LIMITS = {
	defaultPageSize: 20,
	maxPageSize: 100,
	cursorMaxLength: 512,
	idempotencyKeyMaxLength: 255,
	providerSegmentMaxLength: 64,
	modelSegmentMaxLength: 128,
	modelIdMaxLength: 193,
	inputSchemaUrlMaxLength: 2048,
	idempotencyRetentionMs: 24 * 60 * 60 * 1000
} as const;

export const ROUTER_QUEUE_REQUEST_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface RouterModelBilling {
	/** Compare as a string: only `no` means not charged; anything unrecognised may be charged. */
	charges_on_policy_rejection: string;
}

export interface RouterModelListEntry {
	id: string;
	provider: string;
	model: string;
	billing: RouterModelBilling;
}

export interface RouterModelDetail extends RouterModelListEntry {
	input_schema_url?: string;
}

export interface RouterModelListResponse {
	data: RouterModelListEntry[];
	has_more: boolean;
	next_cursor?: string;
	limit: number;
}

export interface RouterErrorResponse {
	detail: string;
	error_type: RouterErrorType;
}

export interface RouterValidationErrorEntry {
	loc: Array<string | number>;
	msg: string;
	type: string;
	ctx?: Record<string, unknown>;
	input?: unknown;
}

export interface RouterValidationErrorResponse {
	detail: RouterValidationErrorEntry[];
}

/**
 * Closed enum of exactly three values. Only `COMPLETED` is specified by name; the emulator calls the
 * unfinished ones `IN_QUEUE` and `IN_PROGRESS` (fal's names). Clients must treat any value other than
 * `COMPLETED` as "not finished" and never depend on these two names.
 */
export const ROUTER_QUEUE_TERMINAL_STATUS = 'COMPLETED';
export type RouterQueueStatus = 'COMPLETED' | (string & {});

export type RouterQueueCancelStatus = 'CANCELLATION_REQUESTED' | 'ALREADY_COMPLETED';

export interface RouterQueueUrls {
	status_url: string;
	response_url: string;
	cancel_url: string;
}

export interface RouterQueueSubmitResponse extends RouterQueueUrls {
	request_id: string;
	status: RouterQueueStatus;
	queue_position?: number;
}

export interface RouterQueueStatusResponse extends RouterQueueUrls {
	request_id: string;
	status: RouterQueueStatus;
	queue_position?: number;
	/** Present only on a COMPLETED request that did not succeed; absent (not null) on success. */
	error_type?: RouterErrorType;
}

export interface RouterQueueCancelResponse {
	request_id: string;
	status: RouterQueueCancelStatus;
}
