/** Small helpers every benchmark prints with. */

export function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

export const median = (values: number[]) => percentile(values, 50);

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** "met" or "MISSED": a missed target is reported, not a failure of the benchmark itself. */
export const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

export const ratio = (value: number, baseline: number) => (baseline > 0 ? `${(value / baseline).toFixed(2)}x` : 'n/a');
