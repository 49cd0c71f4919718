/**
 * The one machine-readable line each figure of a benchmark prints, for `bench/run.ts` to collect
 * into its summary table:
 *
 *   BENCH {"name":"…","figure":12.3,"unit":"ms","baseline":4.1,"ratio":3,"target":"< 300 ms","met":true}
 *
 * `target` is null (and `met` null) for a figure printed for scale. A missed target is reported, not
 * a failure: the benchmark still exits 0. A `check` (the run did what it should: every key charged
 * once, no frame lost) that fails means the figures cannot be trusted; `failCheck` sets a non-zero
 * exit, as a crash does.
 */
export const BENCH_PREFIX = 'BENCH ';

export interface BenchFigure {
	name: string;
	figure: number;
	unit: string;
	baseline: number | null;
	/** figure / baseline, when there is a baseline. */
	ratio: number | null;
	target: string | null;
	met: boolean | null;
}

export interface FigureInput {
	name: string;
	figure: number;
	unit: string;
	baseline?: number | null;
	target?: string;
	met?: boolean;
}

const round = (n: number): number => (Number.isFinite(n) ? Math.round(n * 1000) / 1000 : n);

export function benchFigure(input: FigureInput): BenchFigure {
	const baseline = input.baseline ?? null;
	return {
		name: input.name,
		figure: round(input.figure),
		unit: input.unit,
		baseline: baseline === null ? null : round(baseline),
		ratio: baseline !== null && baseline > 0 ? round(input.figure / baseline) : null,
		target: input.target ?? null,
		met: input.target === undefined ? null : (input.met ?? null)
	};
}

/** Prints one figure as a BENCH line. */
export function report(input: FigureInput): void {
	console.log(`${BENCH_PREFIX}${JSON.stringify(benchFigure(input))}`);
}

/** Prints a check of the run itself; a failed one ends the benchmark with exit code 1. */
export function check(name: string, ok: boolean, detail = ''): void {
	report({ name: `check: ${name}`, figure: ok ? 1 : 0, unit: 'ok', target: 'holds', met: ok });
	if (!ok) {
		console.log(`FAIL: ${name}${detail ? ` (${detail})` : ''}`);
		process.exitCode = 1;
	}
}

/** A BENCH line back into its figure, or undefined for any other line. */
export function parseBenchLine(line: string): BenchFigure | undefined {
	if (!line.startsWith(BENCH_PREFIX)) return undefined;
	try {
		const value = JSON.parse(line.slice(BENCH_PREFIX.length)) as BenchFigure;
		return typeof value.name === 'string' && typeof value.figure === 'number' ? value : undefined;
	} catch {
		return undefined;
	}
}
