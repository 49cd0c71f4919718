/**
 * What the three v2 surfaces share: one asset book over the shared blobs, one job book over the
 * engine, idempotency keys, and the response bodies each surface writes from those records.
 */
import type { EmulatorState } from '../../state';
import type { StorageService } from '../../storage/server';
import type { WorkflowEngine } from '../engine';
import type { V2Asset, V2Job, V2Output } from '../../../src/lib/workflows/protocol/workflow-v2';
import { AssetBook, type AssetRecord } from './assets';
import { IdempotencyKeys } from './idempotency';
import { V2Jobs, isTerminal, type JobRecord, type OutputEntry } from './jobs';
import { formatTime, newId, opaqueOutputId } from './envelope';
import { SURFACES, type SurfaceName, type SurfaceRules } from './surface';
import type { WriteObserver } from './sse';

export const V2_PREFIX = '/api/v2';
/** Lifetime of an asset's content `url` (signed storage URL, or the proxy's own). */
export const ASSET_URL_LIFETIME_SECONDS = 3600;
export const DEFAULT_DEPLOYMENT_KEY = 'rb-deploy-key-fedcba9876543210';
/** The proxy's keep-alive after this much silence. */
export const PROXY_KEEPALIVE_MS = 15_000;

export interface SelfHostedConfig {
	/** Static bearer token; null: no auth (the proxy's default). */
	token: string | null;
	/** Exact origins allowed (`--enable-cors-header`); others get 403 forbidden_origin. */
	corsOrigins: string[];
	keepaliveMs: number;
	/**
	 * The ComfyUI behind the proxy: null, the proxy as documented; `0.3.64`, the behaviours observed in
	 * front of a real ComfyUI 0.3.64 (the spec page's last subsection).
	 */
	upstream: Upstream;
}

export const UPSTREAMS = [null, '0.3.64'] as const;
export type Upstream = (typeof UPSTREAMS)[number];

export interface SurfaceState {
	rules: SurfaceRules;
	/** The origin this surface listens on, known once listening. */
	origin: string;
	openStreams: number;
}

export class V2Core {
	readonly assets = new AssetBook();
	readonly keys = new IdempotencyKeys();
	readonly jobs: V2Jobs;
	readonly surfaces: Record<SurfaceName, SurfaceState>;
	selfHosted: SelfHostedConfig;
	/** Benchmarks observe each SSE frame written. */
	writeObserver: WriteObserver | undefined;
	/** Whether the engine's origin is down (restart control): the proxy in front of it says so. */
	upstreamDown: () => boolean = () => false;
	private fresh = 0;

	constructor(
		readonly state: EmulatorState,
		readonly engine: WorkflowEngine,
		readonly storage: StorageService,
		readonly deploymentKey: string,
		private readonly selfHostedDefaults: SelfHostedConfig
	) {
		this.selfHosted = { ...selfHostedDefaults, corsOrigins: [...selfHostedDefaults.corsOrigins] };
		this.surfaces = {
			managed: { rules: SURFACES.managed, origin: '', openStreams: 0 },
			deployment: { rules: SURFACES.deployment, origin: '', openStreams: 0 },
			'self-hosted': { rules: SURFACES['self-hosted'], origin: '', openStreams: 0 }
		};
		this.jobs = new V2Jobs(engine, {
			now: () => state.now(),
			outputAsset: (rec, file) => this.outputAsset(rec, file),
			textAsset: (rec, text, name) => this.textAsset(rec, text, name),
			outputBody: (rec, entry) => this.outputBody(rec.rules, entry),
			upstream064: (rec) => this.upstream064(rec.rules)
		});
		state.onReset(() => {
			this.assets.clear();
			this.keys.clear();
			this.jobs.clear();
			this.selfHosted = { ...this.selfHostedDefaults, corsOrigins: [...this.selfHostedDefaults.corsOrigins] };
		});
	}

	/** Whether this surface is the proxy in front of ComfyUI 0.3.64. */
	upstream064(rules: SurfaceRules): boolean {
		return rules.name === 'self-hosted' && this.selfHosted.upstream === '0.3.64';
	}

	/** Whether the caller holds a blob: its own assets, and for the managed account its v1 files too. */
	ownsBlob(surface: SurfaceName, hash: string): boolean {
		return this.assets.ownsBlob(surface, hash) || (surface === 'managed' && this.engine.files.hasBlob(hash));
	}

	newAsset(rules: SurfaceRules, blob: { hash: string; size: number; mime: string }, filePath: string | null, output = false): AssetRecord {
		const now = this.state.now();
		const f = this.state.faults;
		return this.assets.add({
			id: output && rules.uuidIds ? opaqueOutputId() : newId(rules, 'asset'),
			owner: rules.name,
			blobHash: blob.hash,
			size: blob.size,
			contentType: blob.mime,
			filePath,
			createdAt: now,
			readyAt: output ? now : now + f.v2ScanMs,
			hashAt: output ? now : now + f.v2HashDelayMs,
			output
		});
	}

	isReady(asset: AssetRecord): boolean {
		return this.state.now() >= asset.readyAt;
	}

	/** A fresh content URL: a newly signed storage URL (contract), or the proxy's own content route. */
	contentUrl(rules: SurfaceRules, asset: AssetRecord): string {
		const name = asset.filePath ?? asset.blobHash.slice('blake3:'.length);
		if (rules.redirectContent) {
			const path = `/o/${encodeURIComponent(asset.blobHash)}/${encodeURIComponent(name)}?generation=${++this.fresh}`;
			return this.storage.signer.sign(this.storage.origin, path, ASSET_URL_LIFETIME_SECONDS, this.state.now());
		}
		return `${this.surfaces[rules.name].origin}${V2_PREFIX}/assets/${encodeURIComponent(asset.id)}/content`;
	}

	assetBody(rules: SurfaceRules, asset: AssetRecord, createdNew?: boolean): V2Asset {
		const now = this.state.now();
		const ready = this.isReady(asset);
		return {
			id: asset.id,
			hash: now >= asset.hashAt ? asset.blobHash : null,
			size_bytes: asset.size,
			content_type: asset.contentType,
			file_path: asset.filePath,
			...(createdNew !== undefined ? { created_new: createdNew } : {}),
			created_at: formatTime(rules, asset.createdAt),
			url: ready ? this.contentUrl(rules, asset) : null,
			url_expires_at: ready ? formatTime(rules, now + ASSET_URL_LIFETIME_SECONDS * 1000) : null
		};
	}

	private outputAsset(rec: JobRecord, file: { type: 'output' | 'temp'; filename: string }): string | undefined {
		const stored = this.engine.files.get(file.type, file.filename);
		if (!stored) return undefined;
		return this.newAsset(rec.rules, { hash: stored.hash, size: stored.size, mime: stored.mime }, file.filename, true).id;
	}

	private async textAsset(rec: JobRecord, text: string, name: string): Promise<string> {
		const blob = await this.storage.blobs.put(new TextEncoder().encode(text), 'text/plain');
		return this.newAsset(rec.rules, { hash: blob.hash, size: blob.bytes.byteLength, mime: 'text/plain' }, name, true).id;
	}

	outputBody(rules: SurfaceRules, entry: OutputEntry): V2Output {
		const asset = this.assets.get(entry.assetId, rules.name);
		const now = this.state.now();
		return {
			node_id: entry.nodeId,
			name: entry.name,
			type: entry.type,
			content_type: asset?.contentType ?? 'application/octet-stream',
			// The proxy reports outputs before it has read them.
			size_bytes: rules.uuidIds ? 0 : (asset?.size ?? 0),
			id: entry.assetId,
			hash: rules.uuidIds || !asset ? null : asset.blobHash,
			url: asset
				? this.contentUrl(rules, asset)
				: `${this.surfaces[rules.name].origin}${V2_PREFIX}/assets/${encodeURIComponent(entry.assetId)}/content`,
			url_expires_at: formatTime(rules, now + ASSET_URL_LIFETIME_SECONDS * 1000)
		};
	}

	/** Follow-up links: the obvious paths, or other ones in the `v2-relocated-urls` scenario. */
	jobUrls(rules: SurfaceRules, id: string): V2Job['urls'] {
		const e = encodeURIComponent(id);
		if (this.state.scenario === 'v2-relocated-urls' && !rules.proxyRoutes) {
			return { self: `${V2_PREFIX}/x/jobs/${e}`, events: `${V2_PREFIX}/x/streams/${e}`, cancel: `${V2_PREFIX}/x/jobs/${e}/stop` };
		}
		return { self: `${V2_PREFIX}/jobs/${e}`, events: `${V2_PREFIX}/jobs/${e}/events`, cancel: `${V2_PREFIX}/jobs/${e}/cancel` };
	}

	/** The Job object. `justCreated`: the proxy's 201, which always says queued with null progress. */
	jobBody(rec: JobRecord, justCreated = false): V2Job {
		const rules = rec.rules;
		const status = rules.lazyJobFields && justCreated ? 'queued' : this.jobs.status(rec);
		const lazy = rules.lazyJobFields;
		const running = status === 'running' || status === 'canceling';
		const progress = lazy ? (running && !justCreated ? { value: 0, nodes_done: 0, nodes_total: 0 } : null) : rec.progress;
		const body: V2Job = {
			id: rec.id,
			status,
			created_at: formatTime(rules, rec.createdAt),
			started_at: lazy || rec.startedAt === null ? null : formatTime(rules, rec.startedAt),
			completed_at: lazy || rec.completedAt === null || !isTerminal(status) ? null : formatTime(rules, rec.completedAt),
			expires_at: formatTime(rules, rec.expiresAt),
			queue_position: status === 'queued' ? (this.jobs.queuePosition(rec) ?? 0) : null,
			progress,
			outputs: rec.outputs.map((o) => this.outputBody(rules, o)),
			error: rec.error,
			urls: this.jobUrls(rules, rec.id)
		};
		if (!lazy) {
			const end = rec.completedAt ?? this.state.now();
			body.metrics = {
				queue_ms: rec.startedAt === null ? null : rec.startedAt - rec.createdAt,
				execution_ms: rec.startedAt === null ? null : end - rec.startedAt
			};
		}
		return body;
	}
}
