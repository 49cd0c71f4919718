/**
 * What the page-error fixture watches for: every error that escapes the app in any page of a
 * watched browser context, and in those pages' workers. Chromium reports an uncaught exception and an
 * unhandled promise rejection, in a page or in its dedicated worker (the comlink worker), as the page's
 * error (`weberror`), and what the app logs with `console.error`, page or worker, as a console message.
 * Failed network loads that Chromium itself logs as console errors ("Failed to load resource: …", CORS
 * and CSP refusals) are not counted: many tests cause them on purpose, and a test that cares checks them.
 */
import type { BrowserContext, ConsoleMessage, Page, WebError, Worker } from '@playwright/test';

/** An error a test causes on purpose, with why; `pattern` is matched against the error's text. */
export interface ExpectedError {
	pattern: RegExp | string;
	reason: string;
}

export interface CaughtError {
	kind: 'uncaught error' | 'console.error';
	/** The error's message and stack, or the logged text. */
	text: string;
	/** The page, and the worker when it came from one. */
	where: string;
}

/** Console errors Chromium logs for a failed load, not the app. */
const NETWORK_NOISE: RegExp[] = [
	/^Failed to load resource\b/,
	/^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \S+ (net::ERR_\w+|\d{3}\b)/,
	/has been blocked by CORS policy/,
	/^Refused to \w+ .* because it violates the following Content Security Policy/
];

const isNetworkNoise = (text: string): boolean => NETWORK_NOISE.some((noise) => noise.test(text));

function matches(error: CaughtError, expected: ExpectedError): boolean {
	return typeof expected.pattern === 'string' ? error.text.includes(expected.pattern) : expected.pattern.test(error.text);
}

/** The first script URL in a stack: where an error was thrown. */
function thrownIn(stack: string): string | undefined {
	return /(?:https?|blob):[^\s)]+?(?=:\d+:\d+)/.exec(stack)?.[0];
}

export class PageErrorWatch {
	readonly caught: CaughtError[] = [];
	private readonly expected: ExpectedError[];
	private readonly watched = new WeakSet<BrowserContext>();
	/** Script URLs of the watched pages' workers, to say an error came from one. */
	private readonly workerScripts = new Set<string>();

	constructor(expected: readonly ExpectedError[] = []) {
		this.expected = [...expected];
	}

	/** Watches every page of the context, present and future, and their workers. */
	watch(context: BrowserContext): void {
		if (this.watched.has(context)) return;
		this.watched.add(context);
		const watchWorkers = (page: Page): void => {
			for (const worker of page.workers()) this.workerScripts.add(worker.url());
			page.on('worker', (worker) => this.workerScripts.add(worker.url()));
		};
		context.pages().forEach(watchWorkers);
		context.on('page', watchWorkers);
		// A service worker's console reaches the context, its uncaught errors reach nothing: log them.
		const forward = (serviceWorker: Worker): void => void serviceWorker.evaluate(logUncaughtErrors).catch(() => undefined);
		context.serviceWorkers().forEach(forward);
		context.on('serviceworker', forward);
		context.on('weberror', (error) => this.caught.push(this.uncaught(error)));
		context.on('console', (message) => {
			if (message.type() !== 'error' || isNetworkNoise(message.text())) return;
			this.caught.push(this.logged(message));
		});
	}

	/** Declares an error this test causes on purpose: it no longer fails the test. */
	expect(pattern: RegExp | string, reason: string): void {
		this.expected.push({ pattern, reason });
	}

	/** The caught errors no declaration expects. */
	unexpected(): CaughtError[] {
		return this.caught.filter((error) => !this.expected.some((expected) => matches(error, expected)));
	}

	/** Throws, naming each unexpected error, where it came from and how to declare it, when there is any. */
	check(): void {
		const unexpected = this.unexpected();
		if (unexpected.length > 0) throw new Error(report(unexpected));
	}

	private uncaught(webError: WebError): CaughtError {
		const error = webError.error();
		// A thrown non-Error (a rejected string) has no stack and no name.
		const text = error.stack || (error.name ? `${error.name}: ${error.message}` : error.message);
		const page = webError.page()?.url() ?? 'a closed page';
		const script = thrownIn(text);
		const worker = script ? this.workerOf(script) : undefined;
		const where = worker ? `the worker ${worker} of the page ${page}` : `the page ${page}${script ? ` (thrown in ${script})` : ''}`;
		return { kind: 'uncaught error', text, where };
	}

	/** The worker whose code a script is: its own script, or a chunk in its folder (the app's worker chunks sit beside it). */
	private workerOf(script: string): string | undefined {
		for (const worker of this.workerScripts) {
			if (script === worker) return worker;
			const folder = worker.slice(0, worker.lastIndexOf('/') + 1);
			if (new URL(folder).pathname !== '/' && script.startsWith(folder)) return worker;
		}
		return undefined;
	}

	private logged(message: ConsoleMessage): CaughtError {
		const worker = message.worker();
		const source = message.location().url;
		const text = message.text();
		if (worker && !message.page()) {
			const uncaught = text.startsWith(UNCAUGHT_IN_SERVICE_WORKER);
			return {
				kind: uncaught ? 'uncaught error' : 'console.error',
				text: uncaught ? text.slice(UNCAUGHT_IN_SERVICE_WORKER.length) : text,
				where: `the service worker ${worker.url()}`
			};
		}
		const page = message.page()?.url() ?? 'a closed page';
		const where = worker ? `the worker ${worker.url()} of the page ${page}` : `the page ${page}${source ? ` (logged by ${source})` : ''}`;
		return { kind: 'console.error', text, where };
	}
}

const UNCAUGHT_IN_SERVICE_WORKER = '[uncaught in the service worker] ';

/**
 * Runs inside a service worker (so it names its marker itself): its uncaught errors and unhandled
 * rejections become console errors. One thrown before this runs (while the script first evaluates)
 * still goes unheard.
 */
function logUncaughtErrors(): void {
	const marker = '[uncaught in the service worker] ';
	const describe = (value: unknown): string =>
		value instanceof Error ? (value.stack ?? `${value.name}: ${value.message}`) : String(value);
	self.addEventListener('error', (event) => console.error(marker + describe(event.error ?? event.message)));
	self.addEventListener('unhandledrejection', (event) => console.error(marker + describe(event.reason)));
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const SHOWN = 10;

/** The errors with the same kind, place and first line, once each with how often. */
function grouped(errors: CaughtError[]): Array<{ error: CaughtError; times: number }> {
	const groups = new Map<string, { error: CaughtError; times: number }>();
	for (const error of errors) {
		const key = `${error.kind}|${error.where}|${error.text.split('\n')[0]}`;
		const group = groups.get(key);
		if (group) group.times++;
		else groups.set(key, { error, times: 1 });
	}
	return [...groups.values()];
}

function report(errors: CaughtError[]): string {
	const firstLine = errors[0]!.text.split('\n')[0]!.slice(0, 60);
	const groups = grouped(errors);
	const lines = [
		`${errors.length === 1 ? 'An error' : `${errors.length} errors`} escaped the app during this test ` +
			'(uncaught errors, unhandled rejections and console.error fail a test unless it declares them expected):',
		...groups
			.slice(0, SHOWN)
			.map(
				({ error, times }, i) =>
					`  ${i + 1}. ${error.kind}${times > 1 ? ` (${times} times)` : ''} in ${error.where}:\n${indent(error.text, '       ')}`
			),
		...(groups.length > SHOWN ? [`  … and ${groups.length - SHOWN} more (all in the "page errors" attachment)`] : []),
		'If the app is wrong, fix the app. If the test causes the error on purpose, declare it, with the reason, in the test:',
		`  pageErrors.expect(/${escapeRegExp(firstLine)}/, 'why this test causes it');`,
		'or for a whole file or describe block:',
		`  test.use({ expectedErrors: [{ pattern: /${escapeRegExp(firstLine)}/, reason: 'why these tests cause it' }] });`
	];
	return lines.join('\n');
}

function indent(text: string, by: string): string {
	const shown = text.split('\n').slice(0, 8);
	return shown.map((line) => by + line).join('\n');
}
