/**
 * The catalog walk, exactly as the pagination rules say: the cursor is passed back unchanged and
 * URL-encoded, paging goes on while `has_more` (an empty or short page is not the end), an invalid
 * cursor is an error and never a restart, and a 503 is "unavailable, retrying" (with backoff),
 * never an empty catalog.
 */
import { backoffDelay, type BackoffPolicy } from '../../core/rules/backoff';
import { appError, fail, ok, type AppError, type Result } from '../../core/protocol/errors';
import { readJson, type RawResponse } from '../../core/rules/http-response';
import { newEntries, parseCatalogPage } from '../rules/model-catalog';
import { withRouterWords } from '../rules/model-errors';
import { ROUTER_HEADERS, type RouterModelListEntry } from '../protocol/router-api';
import { catalogUrl, type RouterClient } from './router-client';

/** The spec's default page size: the walk must not care how many pages (empty or short) it takes. */
export const CATALOG_PAGE_SIZE = 20;
export const CATALOG_BACKOFF: BackoffPolicy = { baseMs: 1000, maxMs: 30_000 };
/** Retries of one page before the walk gives up (about ten minutes with the policy above). */
export const CATALOG_MAX_RETRIES = 25;

export interface WalkedPage {
	/** The entries this page added (ids seen on an earlier page are not repeated). */
	added: RouterModelListEntry[];
	/** Everything walked so far, this page included. */
	models: RouterModelListEntry[];
	pages: number;
	last: boolean;
}

export interface WalkHooks {
	onPage(page: WalkedPage): void;
	onRetry(info: { pages: number; attempt: number; retryInMs: number; error: AppError }): void;
	sleep(ms: number): Promise<void>;
	random(): number;
	/** True when the walk should stop (a newer walk started, the profile changed). */
	cancelled?(): boolean;
}

export function retryAfterMs(header: string | null): number | undefined {
	if (!header) return undefined;
	const s = Number(header.trim());
	return Number.isFinite(s) && s >= 0 ? s * 1000 : undefined;
}

function retryable(error: AppError): boolean {
	return error.kind === 'unavailable' || error.kind === 'network' || error.kind === 'timeout';
}

export async function walkCatalog(
	client: RouterClient,
	hooks: WalkHooks
): Promise<Result<{ models: RouterModelListEntry[]; pages: number }>> {
	const request = (cursor: string | undefined) =>
		client.fetch({ url: catalogUrl(client.base, cursor, CATALOG_PAGE_SIZE), credential: client.credential });
	let models: RouterModelListEntry[] = [];
	const seen = new Set<string>();
	let cursor: string | undefined;
	// The request for the next page, sent as soon as its cursor was read (see below).
	let next: Promise<Result<RawResponse>> | undefined;
	let pages = 0;
	let attempt = 0;
	for (;;) {
		if (hooks.cancelled?.()) return fail(appError('timeout', 'The catalog walk was stopped.'));
		const res = await (next ?? request(cursor));
		next = undefined;
		let error: AppError | undefined;
		let retryHint: number | undefined;
		if (!res.ok) error = res.error;
		else {
			const json = readJson(res.value, 'router');
			if (!json.ok) {
				error = withRouterWords(json.error, { asked: 'catalog-page' });
				retryHint = retryAfterMs(res.value.header(ROUTER_HEADERS.retryAfter));
			} else {
				const page = parseCatalogPage(json.value);
				if (!page.ok)
					return fail(
						appError('bad-response', page.message, {
							status: res.value.status,
							requestId: res.value.header(ROUTER_HEADERS.requestId) ?? undefined
						})
					);
				pages++;
				attempt = 0;
				// Each page waits on the one before it (the cursor), so the next request goes out before
				// this page's entries are merged and handed on: that work overlaps the round trip.
				if (page.page.hasMore) {
					cursor = page.page.nextCursor;
					if (!hooks.cancelled?.()) next = request(cursor);
				}
				const added = newEntries(seen, page.page.entries);
				models = models.concat(added);
				hooks.onPage({ added, models, pages, last: !page.page.hasMore });
				if (!page.page.hasMore) return ok({ models, pages });
				continue;
			}
		}
		if (!retryable(error) || attempt >= CATALOG_MAX_RETRIES) return fail(error);
		const retryInMs = Math.max(retryHint ?? 0, backoffDelay(attempt, CATALOG_BACKOFF, hooks.random()));
		attempt++;
		hooks.onRetry({ pages, attempt, retryInMs, error });
		await hooks.sleep(retryInMs);
	}
}
