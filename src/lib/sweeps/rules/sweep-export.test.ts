import { describe, expect, it } from 'vitest';
import { SWEEP_SCHEMA_VERSION, type SweepAxis, type SweepRecord } from '../protocol/sweep';
import { planCells } from './sweep-plan';
import { cellRows, sweepCsv, sweepJson } from './sweep-export';

const axes: SweepAxis[] = [
	{
		fieldId: '6.text',
		path: ['6', 'text'],
		label: 'Positive · text',
		seed: false,
		values: ['a "red" boat', '=cmd()'],
		pairedWithPrevious: false
	}
];
const sweep: SweepRecord = {
	schemaVersion: SWEEP_SCHEMA_VERSION,
	id: 's',
	profileId: 'p',
	workflowId: null,
	title: 'T',
	base: {},
	seeds: {},
	axes,
	cells: planCells(axes).map((c, i) => (i === 0 ? { ...c, status: 'succeeded', runId: 'r0' } : c)),
	status: 'running',
	createdAt: 0,
	window: 1
};

describe('sweep export', () => {
	const rows = cellRows(sweep, (c) =>
		c.runId ? { status: 'succeeded', seed: 7, durationMs: 1200, firstOutput: 'ComfyUI_0001.png' } : undefined
	);

	it('writes one CSV row per cell, quoting texts and keeping formulas as text', () => {
		expect(sweepCsv(sweep, rows).split('\r\n')).toEqual([
			'"cell","Positive · text","status","seed","duration_ms","run_id","first_output"',
			'0,"a ""red"" boat","succeeded",7,1200,"r0","ComfyUI_0001.png"',
			`1,"'=cmd()","pending",,,,`,
			''
		]);
	});

	it('writes the plan and the rows as JSON', () => {
		const json = JSON.parse(sweepJson(sweep, rows));
		expect(json).toMatchObject({
			format: 'runboard-sweep',
			version: 1,
			sweep: { id: 's', axes },
			cells: [
				{ cell: 0, seed: 7 },
				{ cell: 1, status: 'pending' }
			]
		});
		expect(json.sweep.cells).toBeUndefined();
	});
});
