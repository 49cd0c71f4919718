/** The ranking and wording behind the slowest-tests reporter, apart from Playwright so it can be tested. */

export interface TestTiming {
	title: string;
	project: string;
	/** `path:line`, relative to the repository root. */
	location: string;
	durationMs: number;
	/** Playwright's outcome: passed, failed, timedOut, interrupted or skipped. */
	status: string;
}

/** The `count` slowest tests that ran (skipped ones did not), slowest first; ties keep run order. */
export function slowest(timings: readonly TestTiming[], count = 10): TestTiming[] {
	return timings
		.filter((t) => t.status !== 'skipped')
		.map((t, order) => ({ t, order }))
		.sort((a, b) => b.t.durationMs - a.t.durationMs || a.order - b.order)
		.slice(0, count)
		.map(({ t }) => t);
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** One line a test: rank, duration, project, place, title (and the outcome when it did not pass). */
export function formatSlowest(ranked: readonly TestTiming[]): string {
	if (ranked.length === 0) return 'Slowest tests: none ran.';
	const width = (pick: (t: TestTiming) => string) => Math.max(...ranked.map((t) => pick(t).length));
	const durationWidth = width((t) => seconds(t.durationMs));
	const projectWidth = width((t) => t.project);
	const locationWidth = width((t) => t.location);
	const lines = ranked.map((t, i) => {
		const outcome = t.status === 'passed' ? '' : ` [${t.status}]`;
		return `${String(i + 1).padStart(2)}. ${seconds(t.durationMs).padStart(durationWidth)}  ${t.project.padEnd(projectWidth)}  ${t.location.padEnd(locationWidth)}  ${t.title}${outcome}`;
	});
	return [`Slowest ${ranked.length} tests:`, ...lines].join('\n');
}
