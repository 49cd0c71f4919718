import { describe, expect, it } from 'vitest';
import { committedWords, countsSpend, spendCheck, spendSentence } from './spend';

describe('a run on a member, against the pool’s cap', () => {
	it.each([
		// paid, price, cap, committed: the check
		[false, null, 10, 10, { kind: 'free' }],
		[true, 15, null, 9000, { kind: 'within', priceCents: 15 }],
		[true, 15, 50, 35, { kind: 'within', priceCents: 15 }],
		[true, 15, 50, 36, { kind: 'over-cap' }],
		[true, null, 50, 0, { kind: 'no-price' }]
	] as const)('paid %s at %s cents, cap %s, %s committed', (paid, price, cap, spent, check) => {
		expect(spendCheck({ spendCapCents: cap, spentCents: spent }, { paid, pricePerRunCents: price }, 'Cloud')).toMatchObject(check);
	});
});

describe('what the card says was committed', () => {
	it('is our count of prices, never a charge the service confirmed', () => {
		expect(committedWords({ spendCapCents: 50, spentCents: 30 })).toBe(
			'about 30 cents committed (your price × runs sent) of a 50-cent spend cap'
		);
		expect(committedWords({ spendCapCents: null, spentCents: 1 })).toBe('about 1 cent committed (your price × runs sent), no spend cap');
	});
});

describe('the sentence the card and the queue view share', () => {
	it('says the count, since when, and that no service confirmed it', () => {
		expect(spendSentence({ spendCapCents: 30, spentCents: 15 }, '28/11/2026, 22:30:00')).toBe(
			'Paid members: about 15 cents committed (your price × runs sent) of a 30-cent spend cap, counted since 28/11/2026, 22:30:00. Not a charge the service confirmed.'
		);
	});

	it.each([
		['a paid member', [true, false], 0, true],
		['no paid member, nothing counted', [false], 0, false],
		['no paid member left, a count left from one', [false], 15, true]
	] as const)('is said for a pool with %s: %s', (_, paid, spent, said) => {
		const members = paid.map((p, i) => ({ profileId: `m${i}`, weight: 1, enabled: true, paid: p, pricePerRunCents: p ? 15 : null }));
		expect(countsSpend({ members, spentCents: spent })).toBe(said);
	});
});
