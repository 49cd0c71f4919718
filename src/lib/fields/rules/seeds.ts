/** Seeds: a random one in range, and the value to use for the next run in each mode. */
import type { SeedMode } from './field-model';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** Where a schema gives no bounds, random seeds are drawn from the common unsigned 32-bit range (a choice, not a limit). */
const DRAWN_MAX = 2 ** 32 - 1;

export function randomSeed(min: number | undefined = 0, max: number | undefined = DRAWN_MAX, random: () => number = Math.random): number {
	const hi = Math.min(max ?? DRAWN_MAX, MAX_SAFE);
	const lo = Math.max(min ?? 0, 0);
	return lo + Math.floor(random() * (hi - lo + 1));
}

/** The seed for the next run after one used `used`. */
export function nextSeed(
	mode: SeedMode,
	used: number,
	min: number | undefined,
	max: number | undefined,
	random: () => number = Math.random
): number {
	if (mode === 'fixed') return used;
	if (mode === 'increment') return used + 1 > Math.min(max ?? MAX_SAFE, MAX_SAFE) ? (min ?? 0) : used + 1;
	return randomSeed(min, max, random);
}
