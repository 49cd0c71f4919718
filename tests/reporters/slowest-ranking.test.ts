import { describe, expect, it } from 'vitest';
import { formatSlowest, slowest, type TestTiming } from './slowest-ranking';

const timing = (title: string, durationMs: number, status = 'passed', project = 'desk'): TestTiming => ({
	title,
	project,
	location: `tests/e2e/${title}.spec.ts:${durationMs % 97}`,
	durationMs,
	status
});

describe('slowest tests', () => {
	it('ranks the slowest first, keeps only the first ten, and leaves out skipped tests', () => {
		const timings = Array.from({ length: 14 }, (_, i) => timing(`t${i}`, (i + 1) * 1000));
		timings.push(timing('skipped', 99_000, 'skipped'));
		const ranked = slowest(timings);
		expect(ranked.map((t) => t.title)).toEqual(['t13', 't12', 't11', 't10', 't9', 't8', 't7', 't6', 't5', 't4']);
	});

	it('keeps run order between tests of the same duration, and counts failed and timed-out ones', () => {
		const ranked = slowest([timing('a', 500), timing('b', 500), timing('late', 45_000, 'timedOut')], 3);
		expect(ranked.map((t) => t.title)).toEqual(['late', 'a', 'b']);
	});

	it('prints one aligned line a test, with its outcome when it did not pass', () => {
		const text = formatSlowest([timing('walk', 53_620, 'passed', 'phone'), timing('form', 9_400, 'failed')]);
		expect(text.split('\n')).toEqual([
			'Slowest 2 tests:',
			' 1. 53.6 s  phone  tests/e2e/walk.spec.ts:76  walk',
			' 2.  9.4 s  desk   tests/e2e/form.spec.ts:88  form [failed]'
		]);
		expect(formatSlowest([])).toBe('Slowest tests: none ran.');
	});
});
