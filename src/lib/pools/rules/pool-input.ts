/** A pool as a person edits it, checked field by field before it is stored. Pure. */
import { ok, fail, type Result } from '../../core/protocol/errors';
import { POOL_SCHEMA_VERSION, type Pool, type PoolFieldErrors, type PoolInput } from '../protocol/pool';

export const MAX_WEIGHT = 100;
/** 1,000 dollars a run: past it, a typo more likely than a price. */
export const MAX_PRICE_CENTS = 100_000;

export function checkPoolInput(input: PoolInput, profileIds: ReadonlySet<string>): PoolFieldErrors {
	const errors: PoolFieldErrors = {};
	if (input.name.trim() === '') errors.name = 'Give the pool a name.';
	const ids = input.members.map((m) => m.profileId);
	if (input.members.length === 0) errors.members = 'Add at least one profile to the pool.';
	else if (new Set(ids).size !== ids.length) errors.members = 'A profile is in the pool once.';
	else if (ids.some((id) => !profileIds.has(id))) errors.members = 'A member is a profile that no longer exists: take it out.';
	else if (input.members.some((m) => !Number.isFinite(m.weight) || m.weight <= 0 || m.weight > MAX_WEIGHT))
		errors.members = `A weight is a number above 0 and at most ${MAX_WEIGHT}.`;
	const prices = new Map<string, string>();
	for (const m of input.members) {
		if (!m.paid) continue;
		const price = m.pricePerRunCents;
		if (price === null || !Number.isInteger(price) || price < 1 || price > MAX_PRICE_CENTS)
			prices.set(
				m.profileId,
				price === null
					? 'A paid member needs its price per run, in whole cents: the pool counts it against the spend cap.'
					: `The price per run is a whole number of cents, from 1 to ${MAX_PRICE_CENTS}.`
			);
	}
	if (prices.size > 0) errors.prices = prices;
	if (!Number.isFinite(input.cloudThresholdMs) || input.cloudThresholdMs < 0)
		errors.cloudThresholdMs = 'The wait before paid members help is 0 seconds or more.';
	if (input.spendCapCents !== null && (!Number.isInteger(input.spendCapCents) || input.spendCapCents < 0))
		errors.spendCapCents = 'The spend cap is a whole number of cents, 0 or more, or empty for none.';
	return errors;
}

/** The stored pool, made or updated from a checked input; what it committed is kept (a reset is its own action). */
export function poolFromInput(
	input: PoolInput,
	profileIds: ReadonlySet<string>,
	previous: Pool | undefined,
	now: number,
	newId: () => string
): Result<Pool, PoolFieldErrors> {
	const errors = checkPoolInput(input, profileIds);
	if (Object.keys(errors).length > 0) return fail(errors);
	return ok({
		schemaVersion: POOL_SCHEMA_VERSION,
		id: previous?.id ?? input.id ?? newId(),
		name: input.name.trim(),
		members: input.members.map(({ profileId, weight, enabled, paid, pricePerRunCents }) => ({
			profileId,
			weight,
			enabled,
			paid,
			pricePerRunCents: paid ? pricePerRunCents : null
		})),
		cloudThresholdMs: input.cloudThresholdMs,
		spendCapCents: input.spendCapCents,
		spentCents: previous?.spentCents ?? 0,
		spentSince: previous?.spentSince ?? now,
		createdAt: previous?.createdAt ?? now,
		updatedAt: now
	});
}
