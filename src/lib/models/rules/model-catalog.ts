/**
 * The partner-model catalog, pure: parsing a list page into typed entries, the walk's state, the
 * billing facts in words, grouping by provider and search. The walk itself (I/O) lives in the worker.
 */
import { arr, bool, isObject, num, str, type Json } from '../../core/protocol/json';
import type { RouterModelListEntry } from '../protocol/router-api';
import { KIND_WORDS, type ModelKind, type ModelSummary } from './model-summary';
import type { CatalogPageUpdate, CatalogView } from '../protocol/catalog';

export type { CatalogPageUpdate, CatalogView, WalkStatus } from '../protocol/catalog';

export interface CatalogPage {
	entries: RouterModelListEntry[];
	hasMore: boolean;
	nextCursor: string | undefined;
	limit: number;
	/** Entries dropped because they lacked a required field. */
	skipped: number;
}

export function parseCatalogEntry(value: Json): RouterModelListEntry | undefined {
	if (!isObject(value)) return undefined;
	const id = str(value, 'id');
	const provider = str(value, 'provider');
	const model = str(value, 'model');
	const billing = value['billing'];
	if (!id || !provider || !model || !isObject(billing)) return undefined;
	const charges = billing['charges_on_policy_rejection'];
	// Compare as a string; anything else is kept as its JSON text and treated as "may be charged".
	const raw = typeof charges === 'string' ? charges : JSON.stringify(charges ?? null);
	return { id, provider, model, billing: { charges_on_policy_rejection: raw } };
}

/** A list page, or why it is not one. A page with `has_more` but no cursor cannot be continued. */
export function parseCatalogPage(json: Json): { ok: true; page: CatalogPage } | { ok: false; message: string } {
	if (!isObject(json)) return { ok: false, message: 'The catalog page is not a JSON object.' };
	const data = arr(json, 'data');
	const hasMore = bool(json, 'has_more');
	if (!data || hasMore === undefined) return { ok: false, message: 'The catalog page lacks its "data" or "has_more" field.' };
	const nextCursor = str(json, 'next_cursor');
	if (hasMore && !nextCursor) return { ok: false, message: 'The catalog says there is more but gave no cursor to continue with.' };
	const entries: RouterModelListEntry[] = [];
	let skipped = 0;
	for (const item of data) {
		const entry = parseCatalogEntry(item);
		if (entry) entries.push(entry);
		else skipped++;
	}
	return {
		ok: true,
		page: { entries, hasMore, nextCursor: hasMore ? nextCursor : undefined, limit: num(json, 'limit') ?? entries.length, skipped }
	};
}

/**
 * The view with a page update applied, or `resync` when entries between the list shown and the update
 * are missing (a message overtaken by another). An update overtaken by the walk's end changes nothing.
 */
export function applyPageUpdate(view: CatalogView, update: CatalogPageUpdate): CatalogView | 'resync' {
	if (view.walk.kind !== 'walking' && view.walk.kind !== 'retrying') return view;
	const added = update.added;
	if (!added) return { ...view, walk: update.walk };
	if (added.from > view.models.length) return 'resync';
	const fresh = added.models.slice(view.models.length - added.from);
	return { ...view, walk: update.walk, source: 'walk', models: fresh.length ? view.models.concat(fresh) : view.models };
}

/** The entries of a page not seen on an earlier one (an id is kept once), recorded in `seen`. */
export function newEntries(seen: Set<string>, page: RouterModelListEntry[]): RouterModelListEntry[] {
	const added: RouterModelListEntry[] = [];
	for (const entry of page) {
		if (seen.has(entry.id)) continue;
		seen.add(entry.id);
		added.push(entry);
	}
	return added;
}

/**
 * The list `next` with each entry equal to one in `previous` replaced by that same object, so a keyed
 * list renders only the entries that are new or changed when a whole list replaces another.
 */
export function keepIdentities(previous: RouterModelListEntry[], next: RouterModelListEntry[]): RouterModelListEntry[] {
	const known = new Map(previous.map((m) => [m.id, m]));
	return next.map((m) => {
		const old = known.get(m.id);
		const same =
			old !== undefined &&
			old.provider === m.provider &&
			old.model === m.model &&
			old.billing.charges_on_policy_rejection === m.billing.charges_on_policy_rejection;
		return same ? old : m;
	});
}

// ---- billing in words ----------------------------------------------------------------------

export interface PolicyCharge {
	/** `no` only for the exact value `no`; everything else, unknown values included, may be charged. */
	charged: 'no' | 'maybe';
	words: string;
	raw: string;
}

export function policyCharge(billing: { charges_on_policy_rejection: string }): PolicyCharge {
	const raw = billing.charges_on_policy_rejection;
	if (raw === 'no') return { charged: 'no', words: 'A call refused on content-policy grounds is not charged.', raw };
	return { charged: 'maybe', words: `A call refused on content-policy grounds may be charged (the service says "${raw}").`, raw };
}

// ---- grouping and search -------------------------------------------------------------------

export interface ProviderGroup {
	provider: string;
	models: RouterModelListEntry[];
}

export interface CatalogFilter {
	query: string;
	provider?: string | null;
	/** Provider chips: none chosen means every provider. */
	providers?: ReadonlySet<string>;
	/** Kind chips: none chosen means every kind; a model whose schema has not arrived has no kind yet. */
	kinds?: ReadonlySet<ModelKind>;
	/** Only models whose policy refusals are never charged. */
	notChargedOnRefusal: boolean;
	/** What the schemas say (title, description, kind), by model id, as they arrive. */
	summaries?: ReadonlyMap<string, ModelSummary | undefined>;
}

/** The text a search looks in: id, title, description and the kind with its words ("speech" for audio). */
export function searchText(model: RouterModelListEntry, summary: ModelSummary | undefined): string {
	if (!summary) return model.id.toLowerCase();
	return `${model.id} ${summary.title ?? ''} ${summary.description ?? ''} ${summary.kind} ${KIND_WORDS[summary.kind]}`.toLowerCase();
}

export function filterModels(models: RouterModelListEntry[], filter: CatalogFilter): RouterModelListEntry[] {
	const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
	const kinds = filter.kinds && filter.kinds.size > 0 ? filter.kinds : undefined;
	const providers = filter.providers && filter.providers.size > 0 ? filter.providers : undefined;
	return models.filter((m) => {
		if (filter.provider && m.provider !== filter.provider) return false;
		if (providers && !providers.has(m.provider)) return false;
		if (filter.notChargedOnRefusal && m.billing.charges_on_policy_rejection !== 'no') return false;
		// Summaries are read only when a kind or a word asks for them: a reactive map then tracks only
		// those reads, so summaries arriving without a search re-render their own tiles, not the list.
		if (!kinds && words.length === 0) return true;
		const summary = filter.summaries?.get(m.id);
		if (kinds && (!summary || !kinds.has(summary.kind))) return false;
		const hay = searchText(m, summary);
		return words.every((w) => hay.includes(w));
	});
}

/** Pinned models first (in pin order), then recently used ones (newest first), each once, among those shown. */
export function pinnedAndRecent(
	shown: RouterModelListEntry[],
	pinned: readonly string[],
	recent: readonly string[]
): RouterModelListEntry[] {
	const byId = new Map(shown.map((m) => [m.id, m]));
	const out: RouterModelListEntry[] = [];
	const seen = new Set<string>();
	for (const id of [...pinned, ...recent]) {
		const model = byId.get(id);
		if (!model || seen.has(id)) continue;
		seen.add(id);
		out.push(model);
	}
	return out;
}

/** Groups in order of first appearance, so models show as they arrive without jumping around. */
export function groupByProvider(models: RouterModelListEntry[]): ProviderGroup[] {
	const groups = new Map<string, RouterModelListEntry[]>();
	for (const m of models) {
		const list = groups.get(m.provider);
		if (list) list.push(m);
		else groups.set(m.provider, [m]);
	}
	return [...groups].map(([provider, list]) => ({ provider, models: list }));
}

/** "3 minutes ago", for the age of a cached list. */
export function ageInWords(savedAt: number, now: number): string {
	const s = Math.max(0, Math.round((now - savedAt) / 1000));
	if (s < 60) return 'just now';
	const m = Math.round(s / 60);
	if (m < 60) return `${m} minute${m === 1 ? '' : 's'} ago`;
	const h = Math.round(m / 60);
	if (h < 48) return `${h} hour${h === 1 ? '' : 's'} ago`;
	const d = Math.round(h / 24);
	return `${d} days ago`;
}

/** A model id splits into the two path segments of its routes. */
export function modelPath(id: string): string {
	return id
		.split('/')
		.map((s) => encodeURIComponent(s))
		.join('/');
}

/**
 * Whether the service refused the catalog as unavailable (503) and nothing is shown: then the page
 * says so, never "0 models" (an empty catalog is a different fact).
 */
export function catalogUnavailable(view: Pick<CatalogView, 'models' | 'walk'>): boolean {
	if (view.models.length > 0) return false;
	const walk = view.walk;
	if (walk.kind !== 'retrying' && walk.kind !== 'failed') return false;
	return walk.error.status === 503 || walk.error.errorType === 'service_unavailable';
}

/** The count line: "12 models", or "Service unavailable" when a refused walk left nothing to count. */
export function catalogCountWords(view: Pick<CatalogView, 'models' | 'walk'>): string {
	if (catalogUnavailable(view)) return 'Service unavailable';
	return `${view.models.length} model${view.models.length === 1 ? '' : 's'}`;
}
