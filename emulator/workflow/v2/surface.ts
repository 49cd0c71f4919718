/**
 * The three surfaces that serve v2 and how each behaves, read in one place. `managed` and
 * `deployment` follow the contract; `self-hosted` behaves as the real open-source proxy does (the
 * spec page's last section), not as the contract says.
 */
export type SurfaceName = 'managed' | 'deployment' | 'self-hosted';

export interface SurfaceRules {
	name: SurfaceName;
	/** `job_…`/`asset_…` ids, or bare UUIDs (self-hosted) with long opaque output ids. */
	uuidIds: boolean;
	/** Times with `Z` and milliseconds, or microseconds and `+00:00` (self-hosted). */
	plusZeroTimes: boolean;
	/** Stripe replay, 422 on another body, 409 in flight; or 422 on any reuse (self-hosted). */
	replays: boolean;
	/** Content by 302 to the storage origin, or served directly with Range (self-hosted). */
	redirectContent: boolean;
	/** 201 `queued` with null progress, zeros while polled, null started/completed (self-hosted). */
	lazyJobFields: boolean;
	/** Output frames after the terminal status and `: keepalive` comments (self-hosted). */
	proxyStream: boolean;
	/** Default cap of concurrent streams, past which 429 too_many_streams (null: no cap). */
	streamCap: number | null;
	/** `extra_data` may carry only `api_key_comfy_org` (self-hosted). */
	onlyComfyKeyExtra: boolean;
	/** 402 insufficient_credits is possible (managed and per-deployment only). */
	credits: boolean;
	/** Dedup answers the same asset id, and from-hash never answers 201 (self-hosted). */
	sameIdDedup: boolean;
	/** Proxy extensions: GET /jobs, GET /health. */
	proxyRoutes: boolean;
	/** Cancel of a running job comes back `canceled` at once (self-hosted may). */
	cancelAtOnce: boolean;
	/** Text outputs (PreviewAny) become Outputs of type `text`; the proxy drops them (observed). */
	textOutputs: boolean;
	/**
	 * ComfyUI's animated `images` (SaveVideo, SaveWEBM, SaveAnimatedWEBP) are Outputs of type
	 * `video`; the proxy types them `image`, the content type saying `video/mp4` (observed, 0.3.64).
	 */
	animatedAsVideo: boolean;
}

const CONTRACT = {
	uuidIds: false,
	plusZeroTimes: false,
	replays: true,
	redirectContent: true,
	lazyJobFields: false,
	proxyStream: false,
	streamCap: null,
	onlyComfyKeyExtra: false,
	credits: true,
	sameIdDedup: false,
	proxyRoutes: false,
	cancelAtOnce: false,
	textOutputs: true,
	animatedAsVideo: true
} as const;

export const SURFACES: Record<SurfaceName, SurfaceRules> = {
	managed: { name: 'managed', ...CONTRACT },
	deployment: { name: 'deployment', ...CONTRACT },
	'self-hosted': {
		name: 'self-hosted',
		uuidIds: true,
		plusZeroTimes: true,
		replays: false,
		redirectContent: false,
		lazyJobFields: true,
		proxyStream: true,
		streamCap: 8,
		onlyComfyKeyExtra: true,
		credits: false,
		sameIdDedup: true,
		proxyRoutes: true,
		cancelAtOnce: true,
		textOutputs: false,
		animatedAsVideo: false
	}
};

/** Headers a browser may read from the proxy (the contract's are the shared CORS list). */
export const PROXY_EXPOSED_HEADERS = ['Retry-After', 'Content-Range', 'Accept-Ranges'];
