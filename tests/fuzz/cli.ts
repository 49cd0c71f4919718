/**
 * The long fuzz run: `npm run fuzz [-- --budget 300 --runs 100000 --frames 1000000 --workers 2 --seed N --only name,name]`.
 * Each parser runs until its count or its time budget; prints inputs tried and failures per parser,
 * and exits non-zero on any failure, hang, or a count not reached.
 */
import { parseArgs } from 'node:util';
import { runPool } from './pool';
import { FUZZ_TARGETS } from './targets';

const { values } = parseArgs({
	options: {
		budget: { type: 'string', default: '600' },
		runs: { type: 'string', default: '100000' },
		frames: { type: 'string', default: '1000000' },
		workers: { type: 'string', default: '2' },
		seed: { type: 'string' },
		only: { type: 'string' },
		'hang-ms': { type: 'string', default: '1000' }
	}
});
const budgetMs = Number(values.budget) * 1000;
const seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 2 ** 31;
const only = values.only?.split(',').map((s) => s.trim());
const targets = FUZZ_TARGETS.filter((t) => !only || only.includes(t.name));
/** The count a parser must reach: `--frames` for the frame codec (its own `longRuns`), `--runs` for the others. */
const wanted = (t: (typeof targets)[number]) => (t.name === 'binary frames' ? Number(values.frames) : (t.longRuns ?? Number(values.runs)));

console.log(`fuzzing ${targets.length} parsers, seed ${seed}, ${values.workers} workers, budget ${values.budget} s each`);
const t0 = performance.now();
const reports = await runPool(
	targets.map((t) => ({
		name: t.name,
		options: { runs: wanted(t), budgetMs, seed, stopAtFirst: false }
	})),
	{
		workers: Number(values.workers),
		hangMs: Number(values['hang-ms']),
		onDone: (r) => console.log(`  done: ${r.name} (${r.tried} inputs, ${(r.ms / 1000).toFixed(1)} s)`)
	}
);
const total = ((performance.now() - t0) / 1000).toFixed(1);

let bad = false;
console.log(
	`\n${'parser'.padEnd(20)} ${'inputs tried'.padStart(13)} ${'failures'.padStart(9)} ${'hangs'.padStart(6)} ${'time'.padStart(8)}  ${'inputs/s'.padStart(9)}`
);
for (const [i, r] of reports.entries()) {
	const target = targets[i]!;
	const needed = wanted(target);
	const short = r.tried < needed;
	bad ||= r.failures > 0 || short || r.hang !== undefined;
	const rate = Math.round(r.tried / Math.max(r.ms / 1000, 0.001));
	console.log(
		`${r.name.padEnd(20)} ${String(r.tried).padStart(13)} ${String(r.failures - (r.hang ? 1 : 0)).padStart(9)} ${String(r.hang ? 1 : 0).padStart(6)} ${`${(r.ms / 1000).toFixed(1)} s`.padStart(8)}  ${String(rate).padStart(9)}${short && !r.hang ? `  (budget ran out before ${needed})` : ''}`
	);
	for (const e of r.examples) console.log(`    ${e.reason}\n      input: ${e.input}`);
}
console.log(`\ntotal ${total} s wall clock; seed ${seed}${bad ? '; FAILED' : '; 0 uncaught exceptions, 0 hangs'}`);
process.exit(bad ? 1 : 0);
