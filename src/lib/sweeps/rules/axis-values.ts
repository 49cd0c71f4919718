/**
 * What a person types for an axis, read into its values: a list (`4, 6, 8`), a range with a step
 * (`4..8 step 2`), for a seed also `5 random`, and for a text one value per line. Errors are
 * sentences for the field.
 */
import { MAX_CELLS, type AxisValue } from '../protocol/sweep';

export type AxisKind = 'seed' | 'integer' | 'number' | 'text';

export interface AxisBounds {
	min?: number;
	max?: number;
}

export type AxisRead = { ok: true; values: AxisValue[] } | { ok: false; message: string };

const NUMBER = String.raw`-?\d+(?:\.\d+)?`;
const RANGE = new RegExp(String.raw`^(${NUMBER})\s*(?:\.\.|to)\s*(${NUMBER})(?:\s*(?:step|by)\s*(\d+(?:\.\d+)?))?$`, 'i');
const RANDOM = /^(\d+)\s+random$|^random\s+(\d+)$/i;
/** Where a seed input gives no bounds: the common unsigned 32-bit range. */
const SEED_MAX = 2 ** 32 - 1;

/** Drops the float noise of a step added many times (0.1 + 0.2). */
const tidy = (n: number) => Number(n.toFixed(10));

export function readAxisValues(kind: AxisKind, text: string, bounds: AxisBounds = {}, random: () => number = Math.random): AxisRead {
	const trimmed = text.trim();
	if (trimmed === '')
		return { ok: false, message: kind === 'text' ? 'Write one value per line.' : 'Enter values: 4, 6, 8 or 4..8 step 2.' };
	if (kind === 'text') {
		const lines = trimmed
			.split('\n')
			.map((l) => l.trim())
			.filter((l) => l !== '');
		return lines.length > MAX_CELLS ? tooMany(lines.length) : { ok: true, values: lines };
	}
	const random_ = kind === 'seed' ? RANDOM.exec(trimmed) : null;
	if (random_) {
		const count = Number(random_[1] ?? random_[2]);
		if (count < 1) return { ok: false, message: 'Ask for at least one random seed.' };
		if (count > MAX_CELLS) return tooMany(count);
		const lo = Math.max(bounds.min ?? 0, 0);
		const hi = Math.min(bounds.max ?? SEED_MAX, Number.MAX_SAFE_INTEGER);
		const span = hi - lo + 1;
		const seeds = new Set<number>();
		while (seeds.size < Math.min(count, span)) {
			// A draw already taken moves to the next free seed: a fixed number of draws, whatever `random` gives.
			let seed = lo + Math.floor(random() * span);
			while (seeds.has(seed)) seed = seed >= hi ? lo : seed + 1;
			seeds.add(seed);
		}
		return { ok: true, values: [...seeds] };
	}
	const values = rangeOrList(trimmed);
	if (!values.ok) return values;
	for (const v of values.values as number[]) {
		if (kind !== 'number' && !Number.isInteger(v)) return { ok: false, message: `${v} is not a whole number.` };
		if (bounds.min !== undefined && v < bounds.min)
			return { ok: false, message: `${v} is below the least this input takes (${bounds.min}).` };
		if (bounds.max !== undefined && v > bounds.max)
			return { ok: false, message: `${v} is above the most this input takes (${bounds.max}).` };
	}
	return values;
}

function rangeOrList(text: string): AxisRead {
	const range = RANGE.exec(text);
	if (range) {
		const [from, to] = [Number(range[1]), Number(range[2])];
		const step = range[3] === undefined ? 1 : Number(range[3]);
		if (step <= 0) return { ok: false, message: 'The step must be more than 0.' };
		const count = Math.floor(tidy(Math.abs(to - from) / step)) + 1;
		if (count > MAX_CELLS) return tooMany(count);
		const sign = to >= from ? 1 : -1;
		return { ok: true, values: Array.from({ length: count }, (_, i) => tidy(from + sign * i * step)) };
	}
	const parts = text
		.split(/[,;\s]+/)
		.map((p) => p.trim())
		.filter((p) => p !== '');
	const values: number[] = [];
	for (const part of parts) {
		if (!new RegExp(`^${NUMBER}$`).test(part)) return { ok: false, message: `"${part}" is not a number: write 4, 6, 8 or 4..8 step 2.` };
		values.push(Number(part));
	}
	return values.length > MAX_CELLS ? tooMany(values.length) : { ok: true, values };
}

const tooMany = (n: number): AxisRead => ({ ok: false, message: `${n} values: a sweep takes at most ${MAX_CELLS} runs.` });
