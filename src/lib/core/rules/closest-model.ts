/**
 * The model file a server has that is closest to one a workflow names, from the same list (the
 * same folder): the same file name in another subfolder first (`SDXL/sd_xl_base_1.0.safetensors`
 * for `sd_xl_base_1.0.safetensors`), else the name sharing the most letter pairs, when it shares
 * enough to be a plausible stand-in.
 */

const baseName = (name: string): string => name.split(/[\\/]/).pop()!.toLowerCase();
const stem = (name: string): string => baseName(name).replace(/\.[a-z0-9]{2,12}$/, '');

function letterPairs(text: string): Map<string, number> {
	const pairs = new Map<string, number>();
	const clean = text.replace(/[^a-z0-9]+/g, ' ');
	for (let i = 0; i < clean.length - 1; i++) {
		const pair = clean.slice(i, i + 2);
		if (pair.includes(' ')) continue;
		pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
	}
	return pairs;
}

/** Sørensen–Dice over letter pairs: 1 for the same name, 0 for nothing shared. */
export function nameLikeness(a: string, b: string): number {
	const x = letterPairs(stem(a));
	const y = letterPairs(stem(b));
	let shared = 0;
	let total = 0;
	for (const n of x.values()) total += n;
	for (const [pair, n] of y) {
		total += n;
		shared += Math.min(n, x.get(pair) ?? 0);
	}
	return total === 0 ? 0 : (2 * shared) / total;
}

/** Below this, a name is no stand-in: offering it would only mislead. */
const PLAUSIBLE = 0.4;

export function closestModelFile(wanted: string, offered: ReadonlyArray<string | number>): string | undefined {
	const names = offered.filter((o): o is string => typeof o === 'string' && o !== wanted);
	const same = baseName(wanted);
	const sameFile = names.find((n) => baseName(n) === same);
	if (sameFile !== undefined) return sameFile;
	let best: string | undefined;
	let bestScore = PLAUSIBLE;
	for (const name of names) {
		const score = nameLikeness(wanted, name);
		if (score > bestScore) [best, bestScore] = [name, score];
	}
	return best;
}
