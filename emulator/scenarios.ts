/**
 * Named scenarios and faults, in one module that tests import. A scenario changes how the services
 * behave as a whole; a fault is a one-off or timed misbehaviour injected through the control routes.
 */

export const SCENARIOS = {
	default: 'The cloud service as specified, one active account, Bearer accepted on v1.',
	'x-api-key-only': 'v1 routes refuse `Authorization: Bearer`; only `X-API-Key` authenticates.',
	'no-credits': 'The account has no credits: runs answer 402.',
	'inactive-subscription': 'The subscription is inactive: runs answer 429.',
	'router-not-enabled': 'The router is not enabled for the caller: every router route answers 403 not_enabled.',
	'comfyui-local':
		'A current local ComfyUI: no auth, per-client events, history in memory (deletable), /api/jobs with job cancel and batch cancel (POST /api/jobs/cancel), /system_stats, /api/features, from-hash answering 503 SERVICE_DISABLED (assets off).',
	'comfyui-local-legacy':
		'ComfyUI 0.3.64 (October 2025): as comfyui-local without /api/jobs, job cancel (one or batch) or from-hash (bare 404s without CORS); /api/features answers as on the real 0.3.64.',
	'two-concurrent-jobs': 'A higher tier: two jobs of the account run at once (previews of type 1/3 carry no prompt_id).',
	'end-executing-first': 'A run ends with `executing` {node: null} BEFORE its terminal event.',
	'end-empty-node': 'A run ends with its terminal event, then `executing` with node "" (empty string) instead of null.',
	'end-empty-node-first': 'The spec read literally: `executing` with node "" (empty), then the terminal event last.',
	'asset-names-rejected': 'LoadImage refuses names of from-hash assets with node_errors (the real service may).',
	'models-unavailable': 'Model downloads fail: CheckpointLoaderSimple ends the run with ModelDownloadError.',
	'v2-relocated-urls': 'v2 job `urls` point at other paths than /jobs/{id}/events and /cancel, which then answer 404.'
} as const;

export type ScenarioName = keyof typeof SCENARIOS;

export function isScenarioName(name: string): name is ScenarioName {
	return Object.hasOwn(SCENARIOS, name);
}

export interface FaultSet {
	/** Answer every service request with a 502 HTML proxy page. */
	htmlErrorPage: boolean;
	/** Answer JSON routes with a truncated JSON body (status kept). */
	truncatedJson: boolean;
	/** Delay every service response by this many milliseconds. */
	slowMs: number;
	/** Refuse WebSocket upgrades until this emulator time (ms since epoch). */
	refuseSocketsUntil: number;
	/** Catalog answers 503 service_unavailable. */
	catalogUnavailable: boolean;
	/** v2: POST /jobs answers 402 insufficient_credits (managed and per-deployment). */
	v2InsufficientCredits: boolean;
	/** v2: POST /jobs answers 429 queue_full with Retry-After. */
	v2QueueFull: boolean;
	/** v2: POST /jobs answers 429 queue_full (Retry-After 1) while this many jobs wait to start; 0 sets no limit. */
	v2QueueLimit: number;
	/** v2: new uploads answer 202 and stay "scanning" (not ready) this long. */
	v2ScanMs: number;
	/** v2: new assets carry `hash: null` this long. */
	v2HashDelayMs: number;
	/** v2: POST /jobs and POST /assets hold their answer this long (the call stays in flight). */
	v2HoldMs: number;
	/**
	 * v2: the next this many POST /jobs and POST /assets calls do their work and record it under their
	 * key, then the connection is cut before the answer (a drop after the job or asset was created).
	 */
	v2DropAnswers: number;
	/** v2: every new event stream is cut (socket destroyed) after this many frames; 0 = never. */
	v2StreamDropAfterFrames: number;
	/** v2: concurrent streams per surface past which 429 too_many_streams; -1 = the surface's default. */
	v2StreamCap: number;
}

export function emptyFaults(): FaultSet {
	return {
		htmlErrorPage: false,
		truncatedJson: false,
		slowMs: 0,
		refuseSocketsUntil: 0,
		catalogUnavailable: false,
		...emptyV2Faults()
	};
}

export function emptyV2Faults() {
	return {
		v2InsufficientCredits: false,
		v2QueueFull: false,
		v2QueueLimit: 0,
		v2ScanMs: 0,
		v2HashDelayMs: 0,
		v2HoldMs: 0,
		v2DropAnswers: 0,
		v2StreamDropAfterFrames: 0,
		v2StreamCap: -1
	};
}

export const HTML_PROXY_PAGE = `<!DOCTYPE html>
<html><head><title>502 Bad Gateway</title></head>
<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>
`;
