import { describe, expect, it } from 'vitest';
import {
	applyPageUpdate,
	filterModels,
	groupByProvider,
	keepIdentities,
	newEntries,
	parseCatalogPage,
	pinnedAndRecent,
	policyCharge,
	type CatalogFilter,
	type CatalogView
} from './model-catalog';
import type { ModelSummary } from './model-summary';

describe('catalog rules', () => {
	it('words the policy charge: only "no" means not charged, anything else may be charged with its raw value', () => {
		expect(policyCharge({ charges_on_policy_rejection: 'no' }).charged).toBe('no');
		expect(policyCharge({ charges_on_policy_rejection: 'yes' })).toMatchObject({ charged: 'maybe', raw: 'yes' });
		expect(policyCharge({ charges_on_policy_rejection: 'pending_policy_review' }).words).toContain('pending_policy_review');
		expect(policyCharge({ charges_on_policy_rejection: 'No' }).charged).toBe('maybe');
	});

	it('parses a page, skipping entries without required fields and keeping a non-string billing value as text', () => {
		const parsed = parseCatalogPage({
			data: [{ id: 'a/b', provider: 'a', model: 'b', billing: { charges_on_policy_rejection: true } }, { id: 'x' }],
			has_more: false,
			limit: 20
		});
		expect(parsed).toMatchObject({ ok: true, page: { skipped: 1, entries: [{ billing: { charges_on_policy_rejection: 'true' } }] } });
	});

	it('groups by provider in arrival order and filters by words', () => {
		const m = (id: string, charges = 'no') => ({
			id,
			provider: id.split('/')[0]!,
			model: id.split('/')[1]!,
			billing: { charges_on_policy_rejection: charges }
		});
		const list = [m('b/one'), m('a/two', 'yes'), m('b/three')];
		expect(groupByProvider(list).map((g) => g.provider)).toEqual(['b', 'a']);
		expect(filterModels(list, { query: 'b th', provider: null, notChargedOnRefusal: false }).map((x) => x.id)).toEqual(['b/three']);
		expect(filterModels(list, { query: '', provider: null, notChargedOnRefusal: true })).toHaveLength(2);
	});

	it('searches titles, descriptions and kinds once schemas arrive, and filters by kind and provider chips', () => {
		const m = (id: string) => ({
			id,
			provider: id.split('/')[0]!,
			model: id.split('/')[1]!,
			billing: { charges_on_policy_rejection: 'no' }
		});
		const list = [m('sonora/voice-hd'), m('quill/quill-3'), m('stratus/upscale-fast'), m('lumen/flux-1')];
		const summaries = new Map<string, ModelSummary>([
			[
				'sonora/voice-hd',
				{ modelId: 'sonora/voice-hd', kind: 'audio', needs: ['text'], etag: null, description: 'Reads your text aloud as natural speech.' }
			],
			['quill/quill-3', { modelId: 'quill/quill-3', kind: 'text', needs: ['text'], etag: null, title: 'Quill 3' }],
			['stratus/upscale-fast', { modelId: 'stratus/upscale-fast', kind: 'image', needs: ['image'], etag: null }]
		]);
		const ids = (filter: Partial<CatalogFilter>) =>
			filterModels(list, { query: '', notChargedOnRefusal: false, summaries, ...filter }).map((x) => x.id);
		expect(ids({ query: 'speech' })).toEqual(['sonora/voice-hd']);
		expect(ids({ query: 'chat' })).toEqual(['quill/quill-3']);
		expect(ids({ query: 'upscale' })).toEqual(['stratus/upscale-fast']);
		expect(ids({ query: 'quill 3' })).toEqual(['quill/quill-3']);
		// Before its schema arrives a model is found by its id only, and has no kind to filter by.
		expect(ids({ query: 'speech', summaries: new Map() })).toEqual([]);
		expect(ids({ kinds: new Set(['audio', 'image']) })).toEqual(['sonora/voice-hd', 'stratus/upscale-fast']);
		expect(ids({ providers: new Set(['lumen', 'quill']) })).toEqual(['quill/quill-3', 'lumen/flux-1']);
		expect(ids({ kinds: new Set(), providers: new Set() })).toHaveLength(4);
	});

	it('puts pinned models first, then recent ones, each once, among those shown', () => {
		const m = (id: string) => ({ id, provider: 'p', model: id.slice(2), billing: { charges_on_policy_rejection: 'no' } });
		const shown = [m('p/a'), m('p/b'), m('p/c')];
		expect(pinnedAndRecent(shown, ['p/c', 'p/gone'], ['p/a', 'p/c']).map((x) => x.id)).toEqual(['p/c', 'p/a']);
	});

	it('keeps an id seen on an earlier page once', () => {
		const m = (id: string) => ({ id, provider: 'p', model: id.slice(2), billing: { charges_on_policy_rejection: 'no' } });
		const seen = new Set<string>();
		expect(newEntries(seen, [m('p/a'), m('p/b')]).map((x) => x.id)).toEqual(['p/a', 'p/b']);
		expect(newEntries(seen, [m('p/b'), m('p/c'), m('p/c')]).map((x) => x.id)).toEqual(['p/c']);
	});

	it('keeps the objects of unchanged entries when a whole list replaces another', () => {
		const m = (id: string, charges = 'no') => ({
			id,
			provider: 'p',
			model: id.slice(2),
			billing: { charges_on_policy_rejection: charges }
		});
		const before = [m('p/a'), m('p/b')];
		const after = keepIdentities(before, [m('p/b'), m('p/a', 'yes'), m('p/c')]);
		expect(after[0]).toBe(before[1]);
		expect(after[1]).not.toBe(before[0]);
		expect(after.map((x) => [x.id, x.billing.charges_on_policy_rejection])).toEqual([
			['p/b', 'no'],
			['p/a', 'yes'],
			['p/c', 'no']
		]);
	});

	it('appends a page update after the list shown, skips what it already has, and asks for the whole list across a gap', () => {
		const m = (id: string) => ({ id, provider: 'p', model: id.slice(2), billing: { charges_on_policy_rejection: 'no' } });
		const view: CatalogView = { profileId: 'x', models: [m('p/a')], savedAt: null, source: 'walk', walk: { kind: 'walking', pages: 1 } };
		const next = applyPageUpdate(view, { walk: { kind: 'walking', pages: 3 }, added: { from: 0, models: [m('p/a'), m('p/b')] } });
		expect(next !== 'resync' && next.models.map((x) => x.id)).toEqual(['p/a', 'p/b']);
		expect(next !== 'resync' && next.models[0]).toBe(view.models[0]);
		expect(applyPageUpdate(view, { walk: { kind: 'walking', pages: 3 }, added: { from: 2, models: [m('p/c')] } })).toBe('resync');
		const done: CatalogView = { ...view, walk: { kind: 'done', pages: 4, at: 1, ms: 1 } };
		expect(applyPageUpdate(done, { walk: { kind: 'walking', pages: 3 }, added: { from: 1, models: [m('p/b')] } })).toBe(done);
		const statusOnly = applyPageUpdate(view, { walk: { kind: 'walking', pages: 2 } });
		expect(statusOnly !== 'resync' && [statusOnly.walk, statusOnly.models]).toEqual([{ kind: 'walking', pages: 2 }, view.models]);
	});
});
