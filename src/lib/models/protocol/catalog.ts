/**
 * The model catalog as the worker sends it to the page: the list and its walk, page updates, and
 * each model's summary. Types only; the rules that make and apply them are `rules/model-catalog.ts`
 * and `rules/model-summary.ts`.
 */
import type { AppError } from '../../core/protocol/errors';
import type { ResultKind } from '../../core/protocol/run-kernel';
import type { RouterModelListEntry } from './router-api';

export type NeededInput = 'text' | 'image' | 'audio' | 'video';

export interface ModelSummary {
	modelId: string;
	kind: ResultKind;
	title?: string;
	/** The description's first sentence, for the tile. */
	sentence?: string;
	/** The description (bounded), for search. */
	description?: string;
	needs: NeededInput[];
	/** The ETag of the document read, so an unchanged document (304) keeps this summary. */
	etag: string | null;
}

/** Where a walk stands. A walk never stops on an empty or short page, and never restarts by itself. */
export type WalkStatus =
	| { kind: 'idle' }
	| { kind: 'walking'; pages: number }
	| { kind: 'retrying'; pages: number; attempt: number; retryInMs: number; error: AppError }
	| { kind: 'done'; pages: number; at: number; /** How long the walk took, first request to last page. */ ms: number }
	| { kind: 'failed'; pages: number; error: AppError };

export interface CatalogView {
	profileId: string;
	models: RouterModelListEntry[];
	/** When the list shown was saved (cache) or completed (walk); null when never. */
	savedAt: number | null;
	/** `cache` while the list shown is the saved one and a walk has not yet replaced it. */
	source: 'cache' | 'walk' | 'none';
	walk: WalkStatus;
}

/**
 * What a walk in progress sends between whole views: its status and, unless a list stays on screen
 * until the walk completes, the entries new since the last update, to go after the first `from`.
 */
export interface CatalogPageUpdate {
	walk: WalkStatus;
	added?: { from: number; models: RouterModelListEntry[] };
}
