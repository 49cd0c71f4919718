/**
 * Everything the router keeps between requests, for one emulator: the catalog build (with its cursor
 * codec and schema documents), settings, router faults and the run stores. Reset with the emulator.
 */
import type { EmulatorState } from '../state';
import { buildCatalog, type CatalogModel } from './catalog';
import { CursorCodec } from './cursor';
import { buildSchemaDocument, inputSchemaOf, type SchemaDocument } from './schemas/document';
import { InputValidator } from './validation';
import { TokenIssuer } from './auth';
import { SpendLedger } from './spend';
import { IdempotencyStore } from './idempotency';
import { ProviderHold, type HoldSetting } from './provider/hold';

export interface RouterSettings {
	/** Simulated provider time of a typical run, in real milliseconds (video takes twice as long). */
	providerMs: number;
	/** A simulated network round trip: every request (preflights too, not control routes) waits this long first. */
	networkMs: number;
	/** Queued requests running at once per scope; the rest wait with a queue position. */
	queueConcurrency: number;
	/** Synchronous calls in flight per scope before 429 concurrency_limit_exceeded. */
	inFlightLimit: number;
	/** Ceiling on money committed to in-flight calls, per scope, USD cents. */
	spendLimitCents: number;
	/** Emulator time a queued request may wait for admission before `queue_timeout`. */
	queueTimeoutMs: number;
	/** How long the service holds a synchronous call before 504 deadline_exceeded (spec: 10 min). */
	syncHoldMs: number;
	/** Retention of finished queued requests and idempotency records, emulator time. */
	retentionMs: number;
	/** A stored response larger than this cannot be replayed: its key is consumed (rule 5). */
	replayLimitBytes: number;
	/** Stops admission from the queue (requests stay queued; lets tests reach `queue_timeout`). */
	queuePaused: boolean;
	/** Holds dispatched runs at the provider until released (`provider/hold.ts`); null holds none. */
	holdProvider: HoldSetting | null;
}

export type DropMode = 'none' | 'recoverable' | 'consumed';
export type ErrorBodyMode = 'json' | 'html' | 'truncated' | 'text';

export interface RouterFaults {
	/** One-shot: the next dispatched run loses its connection right after dispatch. */
	dropAfterDispatch: DropMode;
	/** Runs fail with this error type (one the client has never seen) until cleared. */
	unknownErrorType: string | null;
	unknownErrorStatus: number;
	/** What error bodies look like on the wire; status and request id are kept. */
	errorBody: ErrorBodyMode;
	/** Schema documents answer 500 internal_error. */
	schemaInternalError: boolean;
	/** Runs answer 429 rate_limited. */
	rateLimited: boolean;
	/** Runs and queue routes answer 503 service_unavailable. */
	runsUnavailable: boolean;
	/** Copying result assets to the service's storage fails: entries keep their provider-CDN reference. */
	assetCopyFails: boolean;
	/** One-shot: the next successful JSON result is cut off mid-way (`cut-result-fault.ts`). */
	cutResultOnce: boolean;
}

export function defaultSettings(): RouterSettings {
	return {
		providerMs: 1500,
		networkMs: 0,
		queueConcurrency: 4,
		inFlightLimit: 16,
		spendLimitCents: 2000,
		queueTimeoutMs: 10 * 60 * 1000,
		syncHoldMs: 10 * 60 * 1000,
		retentionMs: 24 * 60 * 60 * 1000,
		replayLimitBytes: 8 * 1024 * 1024,
		queuePaused: false,
		holdProvider: null
	};
}

export function defaultRouterFaults(): RouterFaults {
	return {
		dropAfterDispatch: 'none',
		unknownErrorType: null,
		unknownErrorStatus: 500,
		errorBody: 'json',
		schemaInternalError: false,
		rateLimited: false,
		runsUnavailable: false,
		assetCopyFails: false,
		cutResultOnce: false
	};
}

export class CatalogBuild {
	readonly models: CatalogModel[];
	readonly byId: Map<string, CatalogModel>;
	readonly cursors = new CursorCodec();
	private readonly documents = new Map<string, SchemaDocument>();
	private readonly validators = new Map<string, InputValidator>();

	constructor(
		readonly generation: number,
		/** The catalog-size setting: null for the emulator's own catalog. */
		readonly size: number | null = null,
		limitCases = false
	) {
		this.models = buildCatalog(size, limitCases);
		this.byId = new Map(this.models.map((m) => [m.id, m]));
	}

	document(model: CatalogModel): SchemaDocument {
		let doc = this.documents.get(model.id);
		if (!doc) {
			doc = buildSchemaDocument(model);
			this.documents.set(model.id, doc);
		}
		return doc;
	}

	/** The validator of an authored model; undefined for unauthored ones (any object accepted). */
	validator(model: CatalogModel): InputValidator | undefined {
		const doc = this.document(model);
		if (!doc.authored) return undefined;
		let v = this.validators.get(model.id);
		if (!v) {
			v = new InputValidator(inputSchemaOf(doc));
			this.validators.set(model.id, v);
		}
		return v;
	}
}

export class RouterState {
	catalog: CatalogBuild;
	settings = defaultSettings();
	faults = defaultRouterFaults();
	readonly tokens = new TokenIssuer();
	readonly spend = new SpendLedger();
	readonly idempotency = new IdempotencyStore(() => this.settings.retentionMs);
	readonly providerHold = new ProviderHold(() => this.settings.holdProvider);
	private readonly resetHooks: Array<() => void> = [];
	private readonly settingsHooks: Array<() => void> = [];

	constructor(readonly emulator: EmulatorState) {
		this.catalog = new CatalogBuild(1, emulator.catalogSize, emulator.catalogLimitCases);
		emulator.onReset(() => this.reset());
	}

	/** A new build (earlier cursors answer 400); `size` sets the catalog size until the next reset. */
	rebuildCatalog(size: number | null = this.catalog.size): number {
		this.catalog = new CatalogBuild(this.catalog.generation + 1, size, this.emulator.catalogLimitCases);
		return this.catalog.generation;
	}

	onReset(hook: () => void): void {
		this.resetHooks.push(hook);
	}

	/** Stores that depend on settings (the queue's concurrency, its pause) listen here. */
	settingsChanged(): void {
		this.providerHold.settingChanged();
		for (const hook of this.settingsHooks) hook();
	}

	onSettingsChanged(hook: () => void): void {
		this.settingsHooks.push(hook);
	}

	private reset(): void {
		this.rebuildCatalog(this.emulator.catalogSize);
		this.settings = defaultSettings();
		this.faults = defaultRouterFaults();
		this.providerHold.reset();
		this.spend.clear();
		this.idempotency.clear();
		for (const hook of this.resetHooks) hook();
	}
}
