/**
 * The short fuzz run, part of `npm test`: every parser in the registry, with a fixed seed (so a
 * failure reproduces) for a fixed number of inputs each (never a time budget: on a busy machine that
 * tried fewer inputs and failed for it), on worker threads that catch hangs. The long run is
 * `npm run fuzz`. Inputs that once broke a parser are each target's `regressions`, tried first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runPool } from './pool';
import type { RunReport } from './property';
import { FUZZ_TARGETS } from './targets';

const SEED = 1616;
const RUNS = 400;
/** Not a goal: only so that a parser gone exponential ends the run instead of the test's timeout. */
const GUARD_MS = 60_000;
const reports = new Map<string, RunReport>();

describe('fuzzing every parser of untrusted input (short run)', () => {
	beforeAll(async () => {
		const done = await runPool(
			FUZZ_TARGETS.map((t) => ({ name: t.name, options: { runs: RUNS, budgetMs: GUARD_MS, seed: SEED, stopAtFirst: true } })),
			{ workers: 2, hangMs: 5_000 }
		);
		for (const r of done) reports.set(r.name, r);
	}, 180_000);

	it.each(FUZZ_TARGETS.map((t) => t.name))('%s: returns a value or a typed error, never throws, hangs or blows up', (name) => {
		const report = reports.get(name)!;
		expect(report.hang).toBeUndefined();
		expect(report.examples).toEqual([]);
		expect(report.tried).toBe(RUNS);
	});
});
