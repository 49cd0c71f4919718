/**
 * A sweep as a table: one row per cell, its axis values, how its run ended, seed, time and first
 * output, as CSV (spreadsheets) or JSON (the record and the rows, for scripts). Pure.
 */
import type { SweepCell, SweepRecord } from '../protocol/sweep';

/** What the page knows of a cell's run. */
export interface CellRunFacts {
	status: string;
	seed: number | null;
	durationMs: number | null;
	firstOutput: string | null;
}

export interface CellRow {
	cell: number;
	values: Record<string, string | number | boolean>;
	status: string;
	runId: string | null;
	seed: number | null;
	durationMs: number | null;
	firstOutput: string | null;
}

export function cellRows(sweep: SweepRecord, factsOf: (cell: SweepCell) => CellRunFacts | undefined): CellRow[] {
	return sweep.cells.map((cell) => {
		const facts = factsOf(cell);
		return {
			cell: cell.index,
			values: Object.fromEntries(sweep.axes.map((a, i) => [a.label, cell.values[i]!])),
			status: facts?.status ?? cell.status,
			runId: cell.runId,
			seed: facts?.seed ?? null,
			durationMs: facts?.durationMs ?? null,
			firstOutput: facts?.firstOutput ?? null
		};
	});
}

/** A text cell of CSV: quoted, quotes doubled; one a spreadsheet would run as a formula is kept as text. */
function csvField(value: string | number | boolean | null): string {
	if (value === null) return '';
	if (typeof value !== 'string') return String(value);
	const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
	return `"${safe.replace(/"/g, '""')}"`;
}

export function sweepCsv(sweep: SweepRecord, rows: readonly CellRow[]): string {
	const header = ['cell', ...sweep.axes.map((a) => a.label), 'status', 'seed', 'duration_ms', 'run_id', 'first_output'];
	const lines = rows.map((r) =>
		[r.cell, ...sweep.axes.map((a) => r.values[a.label] ?? null), r.status, r.seed, r.durationMs, r.runId, r.firstOutput]
			.map(csvField)
			.join(',')
	);
	return [header.map(csvField).join(','), ...lines].join('\r\n') + '\r\n';
}

export function sweepJson(sweep: SweepRecord, rows: readonly CellRow[]): string {
	const { cells: _cells, ...plan } = sweep;
	return JSON.stringify({ format: 'runboard-sweep', version: 1, sweep: plan, cells: rows }, null, 2);
}
