/** Ends a benchmark that hangs (a stalled stream, a browser that stopped answering) as a failure. */
export function watchdog(minutes: number, cleanup: () => void = () => undefined): void {
	setTimeout(() => {
		console.log(`FAIL: the benchmark did not finish within ${minutes} minutes`);
		cleanup();
		process.exit(1); // Playwright kills the browsers it launched when the process exits
	}, minutes * 60_000).unref();
}
