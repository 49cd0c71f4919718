/** The model-runs part of the worker API (issue: model runs in the app). */
import type { AppError, Result } from '../../core/protocol/errors';
import type { CatalogPageUpdate, CatalogView, ModelSummary } from './catalog';
import type { ModelRun, SpendFacts } from '../../core/protocol/model-run';
import type { Json, JsonObject } from '../../core/protocol/json';
import type { RouterModelListEntry } from './router-api';

/** How far the background reading of model schemas has come, for one profile. */
export interface PrefetchProgress {
	done: number;
	total: number;
	/** Why the prefetch stopped early, when it did. */
	stoppedBecause?: AppError;
}
export interface SchemaView {
	modelId: string;
	document: JsonObject;
	etag: string | null;
	savedAt: number;
	/** `fresh`: a new document; `not-modified`: 304, the saved one is current; `saved`: the service could not be asked. */
	source: 'fresh' | 'not-modified' | 'saved';
	/** Why the saved copy is shown instead of a current one. */
	staleBecause?: AppError;
}

/** A model run to start: its body as sent, synchronous or queued, and the seeds it was given. */
export interface StartModelRunInput {
	profileId: string;
	modelId: string;
	body: Json;
	mode: 'sync' | 'queue';
	seeds?: Record<string, number>;
	/** The page is offline: the run waits in the outbox and is sent once when back online. */
	offline?: boolean;
	/** A sweep's cell: the run's id and key, chosen and stored in the sweep before this call, and the sweep it belongs to. */
	cell?: { runId: string; key: string; sweep: { id: string; cell: number } };
}

export interface ModelApi {
	/** The saved catalog at once (with its age); a walk refreshes it in the background, page by page as events. */
	modelCatalog(input: { profileId: string; refresh?: boolean }): Promise<Result<CatalogView>>;
	/**
	 * What the schemas say for the catalog's tiles (kind, title, first sentence, needed inputs), saved
	 * ones at once; the missing ones are fetched in the background and follow as `model-summaries`.
	 */
	modelSummaries(input: { profileId: string }): Promise<{ summaries: ModelSummary[]; progress: PrefetchProgress | null }>;
	/** One model's id, provider and billing: from the catalog when known, else from the detail route. */
	modelEntry(input: { profileId: string; modelId: string }): Promise<Result<RouterModelListEntry>>;
	/** The model's schema document, revalidated with If-None-Match; the saved copy when offline. */
	modelSchema(input: { profileId: string; modelId: string; savedFirst?: boolean }): Promise<Result<SchemaView>>;
	/** Saves the run with a new idempotency key, then sends it (synchronously or to the queue). */
	startModelRun(input: StartModelRunInput): Promise<Result<ModelRun>>;
	/** Sends a run again under its same key; never a new key. */
	retryModelRun(input: { id: string }): Promise<Result<ModelRun>>;
	/** Stops waiting for a synchronous run (the provider may still finish and charge). */
	stopWaitingModelRun(input: { id: string }): Promise<Result<ModelRun>>;
	/** Asks the queue to cancel a request: 202 requested, 409 already completed. */
	cancelModelRun(input: { id: string }): Promise<Result<ModelRun>>;
	modelRuns(input: { profileId?: string }): Promise<ModelRun[]>;
	modelRun(input: { id: string }): Promise<ModelRun | null>;
	/** Deletes a finished model run from this device's history (the service keeps its own records and charges). */
	deleteModelRun(input: { id: string }): Promise<Result<void>>;
	/** Saved bytes of a result or asset, by the key in its record. */
	modelBytes(input: { key: string }): Promise<Uint8Array | null>;
	lastModelInputs(input: { profileId: string; modelId: string }): Promise<Json | null>;
	/** Keeps the form's inputs as they are edited (a draft survives a reload). */
	rememberModelInputs(input: { profileId: string; modelId: string; body: Json }): Promise<void>;
	modelSpend(input: { profileId: string }): Promise<SpendFacts | null>;
}

export type ModelEvent =
	/** The whole view: on open, when a walk starts, retries, ends or fails. */
	| { type: 'model-catalog'; view: CatalogView }
	/** A walk in progress between whole views: its status and the entries new since the last update. */
	| ({ type: 'model-catalog-page'; profileId: string } & CatalogPageUpdate)
	/** Summaries new or changed since the last event, and how far the background prefetch is. */
	| { type: 'model-summaries'; profileId: string; summaries: ModelSummary[]; progress: PrefetchProgress }
	| { type: 'model-run'; run: ModelRun }
	| { type: 'model-spend'; profileId: string; spend: SpendFacts }
	/** A background revalidation found a new document, or could not reach the service (`staleBecause`). */
	| { type: 'model-schema'; profileId: string; view: SchemaView };
