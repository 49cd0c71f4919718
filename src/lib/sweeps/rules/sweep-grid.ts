/**
 * A sweep as a grid: the first axis group is the columns, the second the rows, the third the pages.
 * Pure: the page store derives its view from these.
 */
import type { SweepCell, SweepRecord } from '../protocol/sweep';
import { axisGroups, valueWords, type AxisGroup } from './sweep-plan';

export interface GridShape {
	columns: string[];
	rows: string[];
	pages: string[];
	/** What each dimension is (the axis names), for the header corner. */
	names: { columns: string; rows: string; pages: string };
}

function labels(sweep: SweepRecord, group: AxisGroup | undefined): string[] {
	if (!group) return [''];
	return Array.from({ length: group.length }, (_, i) =>
		group.axes.map((a) => `${sweep.axes[a]!.label.split(' · ').at(-1)} ${valueWords(sweep.axes[a]!.values[i]!)}`).join(', ')
	);
}

const nameOf = (sweep: SweepRecord, group: AxisGroup | undefined) => (group ? group.axes.map((a) => sweep.axes[a]!.label).join(' + ') : '');

export function gridShape(sweep: SweepRecord): GridShape {
	const plan = axisGroups(sweep.axes);
	const groups = plan.ok ? plan.groups : [];
	return {
		columns: labels(sweep, groups[0]),
		rows: labels(sweep, groups[1]),
		pages: labels(sweep, groups[2]),
		names: { columns: nameOf(sweep, groups[0]), rows: nameOf(sweep, groups[1]), pages: nameOf(sweep, groups[2]) }
	};
}

/** The cell at a column, row and page (missing dimensions are 0). */
export function cellAt(sweep: SweepRecord, column: number, row: number, page: number): SweepCell | undefined {
	const shape = gridShape(sweep);
	return sweep.cells[column + shape.columns.length * (row + shape.rows.length * page)];
}

export interface SweepTally {
	total: number;
	done: number;
	failed: number;
	inFlight: number;
	pending: number;
}

export function tally(sweep: SweepRecord): SweepTally {
	const count = (pred: (c: SweepCell) => boolean) => sweep.cells.filter(pred).length;
	return {
		total: sweep.cells.length,
		done: count((c) => c.status === 'succeeded'),
		failed: count((c) => c.status === 'failed' || c.status === 'lost' || c.status === 'interrupted'),
		inFlight: count((c) => c.status === 'sending' || c.status === 'queued' || c.status === 'running'),
		pending: count((c) => c.status === 'pending')
	};
}

/** The sweep in a few words: "7 of 12 done, 4 running, 1 waiting". */
export function progressWords(sweep: SweepRecord): string {
	const t = tally(sweep);
	const parts = [`${t.done} of ${t.total} done`];
	if (t.inFlight > 0) parts.push(`${t.inFlight} sent`);
	if (t.pending > 0) parts.push(`${t.pending} waiting`);
	if (t.failed > 0) parts.push(`${t.failed} failed`);
	const skipped = sweep.cells.filter((c) => c.status === 'skipped').length;
	if (skipped > 0) parts.push(`${skipped} not sent`);
	const state = { running: 'Running', paused: 'Paused', finished: 'Finished', cancelled: 'Cancelled' }[sweep.status];
	return `${state}: ${parts.join(', ')}`;
}
