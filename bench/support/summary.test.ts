import { describe, expect, it } from 'vitest';
import { benchFigure, parseBenchLine, BENCH_PREFIX } from './report';
import { summaryTable } from './summary';

describe('bench lines', () => {
	it('carry the figure, its baseline and ratio, and the target met or missed; figures for scale have no verdict', () => {
		expect(benchFigure({ name: 'walk', figure: 450, unit: 'ms', baseline: 300, target: '< 1.5x baseline', met: true })).toEqual({
			name: 'walk',
			figure: 450,
			unit: 'ms',
			baseline: 300,
			ratio: 1.5,
			target: '< 1.5x baseline',
			met: true
		});
		expect(benchFigure({ name: 'boot', figure: 1.23456, unit: 'ms' })).toEqual({
			name: 'boot',
			figure: 1.235,
			unit: 'ms',
			baseline: null,
			ratio: null,
			target: null,
			met: null
		});
	});

	it('parse back what was printed, and nothing else', () => {
		const figure = benchFigure({ name: 'x', figure: 2, unit: 'ms', target: '< 5 ms', met: true });
		expect(parseBenchLine(`${BENCH_PREFIX}${JSON.stringify(figure)}`)).toEqual(figure);
		expect(parseBenchLine('BENCH {not json')).toBeUndefined();
		expect(parseBenchLine('  first view 55 KB')).toBeUndefined();
	});
});

describe('summary table', () => {
	it('lists every figure with met, MISSED or for scale, a failed benchmark, and the totals', () => {
		const text = summaryTable([
			{
				file: 'models-form.bench.ts',
				exitCode: 0,
				figures: [
					benchFigure({ name: 'map', figure: 1.5, unit: 'ms', baseline: 0.5, target: '< 5 ms', met: true }),
					benchFigure({ name: 'form ready', figure: 140, unit: 'ms', target: '< 100 ms', met: false }),
					benchFigure({ name: 'typed-in form', figure: 300, unit: 'ms' })
				]
			},
			{ file: 'run-graph.bench.ts', exitCode: 1, figures: [] }
		]);
		const lines = text.split('\n');
		expect(lines[0]).toMatch(/^benchmark\s+figure\s+value\s+baseline\s+ratio\s+target\s+result$/);
		expect(lines[1]).toMatch(/^models-form\s+map\s+1\.50 ms\s+0\.50\s+3\.00x\s+< 5 ms\s+met$/);
		expect(lines[2]).toMatch(/form ready\s+140 ms\s+< 100 ms\s+MISSED$/);
		expect(lines[3]).toMatch(/typed-in form\s+300 ms\s+for scale$/);
		expect(lines[4]).toMatch(/^run-graph\s+\(the benchmark itself\)\s+exits 0\s+FAILED \(exit 1\)$/);
		expect(lines.at(-1)).toBe('targets: 1 met, 1 missed, of 2; benchmarks: 1 ran to the end, 1 failed (run-graph.bench.ts)');
	});
});
