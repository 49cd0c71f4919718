/**
 * What a pool commits to its paid members, and the words for it. The services report no cost per
 * run, so a paid member carries the price the person set, and the pool counts that price for each
 * run the member's server accepted: "committed", an estimate of ours, never a charge the service
 * confirmed. Pure.
 */
import type { Pool, PoolMember } from '../protocol/pool';

/** Whether a run on `member` may be sent within the cap, and what it adds. */
export type SpendCheck =
	{ kind: 'free' } | { kind: 'within'; priceCents: number } | { kind: 'no-price'; message: string } | { kind: 'over-cap'; message: string };

export function spendCheck(
	pool: Pick<Pool, 'spendCapCents' | 'spentCents'>,
	member: Pick<PoolMember, 'paid' | 'pricePerRunCents'>,
	name: string
): SpendCheck {
	if (!member.paid) return { kind: 'free' };
	const price = member.pricePerRunCents;
	if (price === null) return { kind: 'no-price', message: `${name} costs money and has no price per run: set one in the pool’s form.` };
	const cap = pool.spendCapCents;
	if (cap !== null && pool.spentCents + price > cap)
		return { kind: 'over-cap', message: `Not sent to ${name}: ${capWords(pool.spentCents, cap, price)}` };
	return { kind: 'within', priceCents: price };
}

/** The cap in words a person can act on. */
export function capWords(spentCents: number, capCents: number, priceCents: number): string {
	return `spend cap: ${spentCents} of ${capCents} cents committed, a run here is ${priceCents}. Raise the cap, or reset what is counted, on the Pools page.`;
}

/** What the pool has counted, for its card: never as if the service had confirmed a charge. */
export function committedWords(pool: Pick<Pool, 'spendCapCents' | 'spentCents'>): string {
	const counted = `about ${pool.spentCents} ${pool.spentCents === 1 ? 'cent' : 'cents'} committed (your price × runs sent)`;
	return pool.spendCapCents === null ? `${counted}, no spend cap` : `${counted} of a ${pool.spendCapCents}-cent spend cap`;
}

/** Whether the pool has anything to say about spend: a paid member, or a count left from one. */
export function countsSpend(pool: Pick<Pool, 'members' | 'spentCents'>): boolean {
	return pool.members.some((m) => m.paid) || pool.spentCents > 0;
}

/** The pool's count in one sentence, as its card and its queue view say it; `since` is when counting began, in the reader's words. */
export function spendSentence(pool: Pick<Pool, 'spendCapCents' | 'spentCents'>, since: string): string {
	return `Paid members: ${committedWords(pool)}, counted since ${since}. Not a charge the service confirmed.`;
}
