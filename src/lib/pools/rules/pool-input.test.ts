import { describe, expect, it } from 'vitest';
import type { Pool, PoolInput, PoolMember } from '../protocol/pool';
import { checkPoolInput, poolFromInput } from './pool-input';

const ids = new Set(['home', 'cloud']);
const home: PoolMember = { profileId: 'home', weight: 1, enabled: true, paid: false, pricePerRunCents: null };
const cloud = (price: number | null): PoolMember => ({ profileId: 'cloud', weight: 1, enabled: true, paid: true, pricePerRunCents: price });
const input = (members: PoolMember[], over: Partial<PoolInput> = {}): PoolInput => ({
	name: 'Home and cloud',
	members,
	cloudThresholdMs: 60_000,
	spendCapCents: 50,
	...over
});

describe('a paid member’s price per run', () => {
	it.each([
		[null, 'A paid member needs its price per run, in whole cents: the pool counts it against the spend cap.'],
		[0, 'The price per run is a whole number of cents, from 1 to 100000.'],
		[2.5, 'The price per run is a whole number of cents, from 1 to 100000.'],
		[Number.NaN, 'The price per run is a whole number of cents, from 1 to 100000.'],
		[100_001, 'The price per run is a whole number of cents, from 1 to 100000.'],
		[15, undefined],
		[100_000, undefined]
	])('of %s cents: %s', (price, error) => {
		expect(checkPoolInput(input([home, cloud(price)]), ids).prices?.get('cloud')).toBe(error);
	});

	it('is asked of a paid member even under no cap, and never of a free one', () => {
		expect(checkPoolInput(input([home, cloud(null)], { spendCapCents: null }), ids)).toEqual({
			prices: new Map([['cloud', 'A paid member needs its price per run, in whole cents: the pool counts it against the spend cap.']])
		});
		expect(checkPoolInput(input([home, { ...cloud(null), paid: false }]), ids)).toEqual({});
	});

	it('is kept for a paid member and dropped for a free one', () => {
		const made = poolFromInput(input([{ ...home, pricePerRunCents: 9 }, cloud(15)]), ids, undefined, 1000, () => 'p');
		expect(made.ok && made.value.members.map((m) => m.pricePerRunCents)).toEqual([null, 15]);
	});
});

describe('what a pool committed', () => {
	it('starts at 0 when the pool is made, and an edit keeps what was counted and since when', () => {
		const made = poolFromInput(input([home, cloud(15)]), ids, undefined, 1000, () => 'p');
		expect(made).toMatchObject({ ok: true, value: { id: 'p', spentCents: 0, spentSince: 1000, createdAt: 1000 } });
		const previous = { ...(made.ok ? made.value : ({} as Pool)), spentCents: 30 };
		const edited = poolFromInput(input([home, cloud(20)], { id: 'p', spendCapCents: 100 }), ids, previous, 2000, () => 'q');
		expect(edited).toMatchObject({ ok: true, value: { id: 'p', spentCents: 30, spentSince: 1000, spendCapCents: 100, updatedAt: 2000 } });
	});
});
