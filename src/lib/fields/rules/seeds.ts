/** Seeds: a random one in range, and the value to use for the next run in each mode. */
import type { SeedMode } from './field-model';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export function randomSeed(min = 0, max = 2 ** 32 - 1, random: () => number = Math.random): number {
	const hi = Math.min(max, MAX_SAFE);
	const lo = Math.max(min, 0);
	return lo + Math.floor(random() * (hi - lo + 1));
}

/** The seed for the next run after one used `used`. */
export function nextSeed(mode: SeedMode, used: number, min: number, max: number, random: () => number = Math.random): number {
	if (mode === 'fixed') return used;
	if (mode === 'increment') return used + 1 > Math.min(max, MAX_SAFE) ? min : used + 1;
	return randomSeed(min, max, random);
}
