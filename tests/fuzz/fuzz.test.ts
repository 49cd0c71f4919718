/**
 * The short fuzz run, part of `npm test`: every parser in the registry, with a fixed seed (so a
 * failure reproduces) for a couple of seconds each, on worker threads that catch hangs. The long
 * run is `npm run fuzz`. Inputs that once broke a parser are each target's `regressions`, tried first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runPool } from './pool';
import type { RunReport } from './property';
import { FUZZ_TARGETS } from './targets';

const SEED = 1616;
const reports = new Map<string, RunReport>();

describe('fuzzing every parser of untrusted input (short run)', () => {
	beforeAll(async () => {
		const done = await runPool(
			FUZZ_TARGETS.map((t) => ({ name: t.name, options: { runs: 20_000, budgetMs: 2_000, seed: SEED, stopAtFirst: true } })),
			{ workers: 2, hangMs: 5_000 }
		);
		for (const r of done) reports.set(r.name, r);
	}, 120_000);

	it.each(FUZZ_TARGETS.map((t) => t.name))('%s: returns a value or a typed error, never throws, hangs or blows up', (name) => {
		const report = reports.get(name)!;
		expect(report.hang).toBeUndefined();
		expect(report.examples).toEqual([]);
		expect(report.tried).toBeGreaterThan(50);
	});
});
