import { describe, expect, it } from 'vitest';
import { committedWords, spendCheck } from './spend';

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
