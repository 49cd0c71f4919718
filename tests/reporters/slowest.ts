/**
 * A Playwright reporter that prints the ten slowest tests (title, project, file:line, duration) at
 * the end of every run: Playwright's own report names slow files, not tests, and the next slow test
 * should be seen the day it lands.
 */
import { dirname, relative } from 'node:path';
import type { FullConfig, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { formatSlowest, slowest, type TestTiming } from './slowest-ranking';

export default class SlowestTestsReporter implements Reporter {
	private rootDir = process.cwd();
	private readonly timings: TestTiming[] = [];

	/** Places are named from the directory of the config file, the repository root. */
	onBegin(config: FullConfig): void {
		if (config.configFile) this.rootDir = dirname(config.configFile);
	}

	onTestEnd(test: TestCase, result: TestResult): void {
		this.timings.push({
			title: test.title,
			project: test.parent.project()?.name ?? '',
			location: `${relative(this.rootDir, test.location.file)}:${test.location.line}`,
			durationMs: result.duration,
			status: result.status
		});
	}

	onEnd(): void {
		console.log(`\n${formatSlowest(slowest(this.timings))}`);
	}

	printsToStdio(): boolean {
		return true;
	}
}
