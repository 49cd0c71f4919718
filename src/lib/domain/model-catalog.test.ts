import { describe, expect, it } from 'vitest';
import { filterModels, groupByProvider, parseCatalogPage, policyCharge } from './model-catalog';

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
});
