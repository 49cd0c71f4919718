/**
 * The page-error fixture at work: the planted specs (`planted/page-errors.planted.ts`) run in a child
 * Playwright run, and each must end as its name says: the planted errors fail their tests with the
 * fixture's message, declared errors and failed loads do not.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test, expect, type TestInfo } from '@playwright/test';

interface Outcome {
	status: string;
	message: string;
}

interface JsonSuite {
	suites?: JsonSuite[];
	specs?: Array<{ title: string; tests: Array<{ results: Array<{ status: string; errors: Array<{ message?: string }> }> }> }>;
}

/** Runs the planted specs in a child Playwright run; their outcomes by test title. */
async function runPlanted(info: TestInfo): Promise<Map<string, Outcome>> {
	const report = info.outputPath('planted-report.json');
	let childErrors = '';
	// The child is a run of its own, not a worker of this one.
	const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(TEST_|PW_TEST_)/.test(name)));
	await promisify(execFile)(
		process.execPath,
		[
			join('node_modules', '@playwright', 'test', 'cli.js'),
			'test',
			'--config=tests/e2e/planted/planted.config.ts',
			'--reporter=json',
			`--output=${info.outputPath('planted-results')}`
		],
		{ env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: report, FORCE_COLOR: '0', NO_COLOR: '1' }, maxBuffer: 16 * 1024 * 1024 }
	).catch((failed: { code?: number; stderr?: string }) => {
		// Exit code 1: a planted test ended otherwise than it declares (the checks below name it). Anything else: the run itself broke.
		if (failed.code !== 1) throw failed;
		childErrors = failed.stderr ?? '';
	});
	const text = await readFile(report, 'utf8').catch(() => {
		throw new Error(`The planted run wrote no report; it said:\n${childErrors}`);
	});
	const outcomes = new Map<string, Outcome>();
	const walk = (suite: JsonSuite): void => {
		for (const spec of suite.specs ?? []) {
			const result = spec.tests[0]!.results[0]!;
			outcomes.set(spec.title, { status: result.status, message: result.errors.map((e) => e.message ?? '').join('\n') });
		}
		suite.suites?.forEach(walk);
	};
	walk(JSON.parse(text) as JsonSuite);
	return outcomes;
}

test('the page-error fixture fails a test that throws in the page, its workers, its service worker or another context, and says how to declare it', async ({}, info) => {
	test.setTimeout(480_000);
	const outcomes = await runPlanted(info);
	const failedWith = (title: string, ...words: Array<string | RegExp>) => {
		const outcome = outcomes.get(title);
		expect(outcome?.status, title).toBe('failed');
		for (const word of words) expect(outcome?.message, title).toMatch(word);
		expect(outcome?.message, title).toContain('pageErrors.expect(/');
		expect(outcome?.message, title).toContain('test.use({ expectedErrors:');
	};
	failedWith('fails: an uncaught error in the page', 'uncaught error in the page http://', 'Error: planted page error');
	failedWith('fails: an unhandled rejection in the page', 'uncaught error in the page http://', 'Error: planted rejection');
	failedWith(
		'fails: an error event in a worker',
		/uncaught error in the worker http:\/\/\S+\/planted-worker\.js of the page http:/,
		'Error: planted worker error'
	);
	failedWith(
		"fails: console.error in the app's worker",
		/console\.error in the worker http:\/\/\S+ of the page http:/,
		'planted worker log'
	);
	failedWith('fails: an uncaught error in a page of a context the test made', 'Error: planted error in another context');
	failedWith(
		'fails: an unhandled rejection in the service worker',
		/uncaught error in the service worker http:\/\/\S+\/sw\.js/,
		'Error: planted service worker rejection'
	);
	for (const title of [
		'passes: an error the test declares expected',
		'passes: an error the block declares expected',
		'passes: failed loads Chromium logs as console errors'
	])
		expect(outcomes.get(title)?.status, title).toBe('passed');
	expect(outcomes.size, 'every planted test ran').toBe(9);
});
