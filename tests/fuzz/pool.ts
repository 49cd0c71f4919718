/**
 * Runs fuzz targets on worker threads, a few at a time. A worker whose input counter stands still
 * for `hangMs` is a hang: it is stopped and reported with the seed and the input number, which
 * reproduce it. A worker that runs out of its heap is reported as a memory failure.
 */
import { Worker } from 'node:worker_threads';
import type { RunOptions, RunReport } from './property';

export interface PoolOptions {
	workers: number;
	hangMs: number;
	/** Heap of each worker; a parser that needs more fails the run. */
	heapMb?: number;
	onDone?: (report: RunReport) => void;
}

const STARTUP_MS = 60_000;

export function runInWorker(name: string, options: Omit<RunOptions, 'onInput'>, hangMs: number, heapMb = 768): Promise<RunReport> {
	const progress = new SharedArrayBuffer(4);
	const counter = new Int32Array(progress);
	const t0 = performance.now();
	const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), {
		workerData: { name, options, progress },
		resourceLimits: { maxOldGenerationSizeMb: heapMb }
	});
	return new Promise((resolve) => {
		let last = -1;
		let since = performance.now();
		const base = (): RunReport => ({
			name,
			tried: Atomics.load(counter, 0),
			failures: 0,
			examples: [],
			ms: Math.round(performance.now() - t0),
			seed: options.seed
		});
		const finish = (report: RunReport) => {
			clearInterval(watch);
			void worker.terminate();
			resolve(report);
		};
		const watch = setInterval(() => {
			const now = Atomics.load(counter, 0);
			// Until the first input, the worker is still loading (slow on a busy machine): that is not a hang.
			const limit = now === 0 ? STARTUP_MS : hangMs;
			if (now !== last) {
				last = now;
				since = performance.now();
			} else if (performance.now() - since > limit) {
				const stalled = Math.round(performance.now() - since);
				finish({
					...base(),
					failures: 1,
					hang: { afterInputs: now, ms: stalled },
					examples: [
						{
							reason: `no progress for ${stalled} ms: a hang at input ${now} of seed ${options.seed}`,
							input: '(reproduce with the seed and the input number)'
						}
					]
				});
			}
		}, 100);
		worker.once('message', (report: RunReport) => finish(report));
		worker.once('error', (error) =>
			finish({
				...base(),
				failures: 1,
				examples: [
					{
						reason: `the worker failed: ${error.name}: ${error.message}`,
						input: `(input ${Atomics.load(counter, 0)} of seed ${options.seed})`
					}
				]
			})
		);
	});
}

/** Every target, `workers` at a time; reports in the order given. */
export async function runPool(
	jobs: Array<{ name: string; options: Omit<RunOptions, 'onInput'> }>,
	pool: PoolOptions
): Promise<RunReport[]> {
	const reports: RunReport[] = new Array(jobs.length);
	let next = 0;
	const lane = async () => {
		while (next < jobs.length) {
			const i = next++;
			const job = jobs[i]!;
			reports[i] = await runInWorker(job.name, job.options, pool.hangMs, pool.heapMb);
			pool.onDone?.(reports[i]!);
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, pool.workers) }, lane));
	return reports;
}
