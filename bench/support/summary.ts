/** The table `npm run bench` ends with: every figure of every benchmark, met or missed, and how each benchmark ended. */
import type { BenchFigure } from './report';

export interface BenchOutcome {
	file: string;
	/** The process's exit code; null when it was killed by a signal. */
	exitCode: number | null;
	figures: BenchFigure[];
}

const num = (n: number | null): string => (n === null ? '' : Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1));

function verdictOf(f: BenchFigure): string {
	if (f.met === null) return 'for scale';
	return f.met ? 'met' : 'MISSED';
}

function table(rows: string[][]): string[] {
	const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
	return rows.map((r) =>
		r
			.map((cell, c) => (c === 2 || c === 3 || c === 4 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
			.join('  ')
			.trimEnd()
	);
}

export function summaryTable(outcomes: readonly BenchOutcome[]): string {
	const rows: string[][] = [['benchmark', 'figure', 'value', 'baseline', 'ratio', 'target', 'result']];
	for (const o of outcomes) {
		const name = o.file.replace(/\.bench\.ts$/, '');
		for (const f of o.figures)
			rows.push([
				name,
				f.name,
				`${num(f.figure)} ${f.unit}`,
				num(f.baseline),
				f.ratio === null ? '' : `${f.ratio.toFixed(2)}x`,
				f.target ?? '',
				verdictOf(f)
			]);
		if (o.exitCode !== 0)
			rows.push([name, '(the benchmark itself)', '', '', '', 'exits 0', o.exitCode === null ? 'KILLED' : `FAILED (exit ${o.exitCode})`]);
		else if (o.figures.length === 0) rows.push([name, '(no BENCH line printed)', '', '', '', '', '']);
	}
	const all = outcomes.flatMap((o) => o.figures).filter((f) => f.met !== null);
	const met = all.filter((f) => f.met).length;
	const failed = outcomes.filter((o) => o.exitCode !== 0).map((o) => o.file);
	return [
		...table(rows),
		'',
		`targets: ${met} met, ${all.length - met} missed, of ${all.length}; benchmarks: ${outcomes.length - failed.length} ran to the end${failed.length ? `, ${failed.length} failed (${failed.join(', ')})` : ''}`
	].join('\n');
}
