/**
 * What is known of the model router, as the catalog's walk last saw it: the badge shows it
 * (`connection-badge.ts`); the catalog store, which loads only with the Models page, works it out.
 */
import type { AppError } from '../protocol/errors';

/** What is known of the model router: nothing yet, answering, or refusing (in words). */
export type RouterHealth = { kind: 'unknown' } | { kind: 'ok' } | { kind: 'failing'; words: string };

/** What the badge reads of the model catalog's walk (the models feature's `CatalogView` has the whole of it). */
export interface CatalogWalkReading {
	walk: { kind: string; error?: AppError };
}

/** The router's health as its catalog walk last saw it (the walk is the app's steady contact with it). */
export function routerHealth(view: CatalogWalkReading | null, error: AppError | null): RouterHealth {
	const walkError = view && (view.walk.kind === 'retrying' || view.walk.kind === 'failed') ? (view.walk.error ?? null) : null;
	const failure = walkError ?? error;
	if (failure) return { kind: 'failing', words: failureWords(failure) };
	if (view?.walk.kind === 'done') return { kind: 'ok' };
	return { kind: 'unknown' };
}

function failureWords(error: AppError): string {
	if (error.kind === 'unavailable' || error.status === 503 || error.errorType === 'service_unavailable') return 'Models unavailable';
	if (error.kind === 'unauthorized' || error.kind === 'forbidden') return 'Models: key refused';
	if (error.kind === 'network' || error.kind === 'timeout') return 'Models not answering';
	return 'Models failing';
}
