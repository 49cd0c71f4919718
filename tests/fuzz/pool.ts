/**
 * Runs fuzz targets on worker threads, one thread per lane taking target after target: starting a
 * thread loads the whole registry through tsx (several CPU-seconds each), so a thread per target
 * spent most of the short run loading. A thread whose input counter stands still for `hangMs` is a
 * hang: it is stopped, reported with the seed and the input number, which reproduce it, and its lane
 * starts a new thread. A thread that runs out of its heap is reported as a memory failure.
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

type Job = { name: string; options: Omit<RunOptions, 'onInput'> };

const STARTUP_MS = 60_000;

/** A worker thread that runs one target at a time; after a hang or a crash it is not used again. */
class FuzzThread {
	private readonly counter = new Int32Array(new SharedArrayBuffer(4));
	private readonly worker: Worker;
	/** Until its first input the thread is loading (slow on a busy machine): that is not a hang. */
	private loaded = false;
	alive = true;

	constructor(heapMb: number) {
		this.worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), {
			workerData: { progress: this.counter.buffer },
			resourceLimits: { maxOldGenerationSizeMb: heapMb }
		});
	}

	run(job: Job, hangMs: number): Promise<RunReport> {
		const { name, options } = job;
		const t0 = performance.now();
		Atomics.store(this.counter, 0, 0);
		return new Promise((resolve) => {
			let last = -1;
			let since = performance.now();
			const base = (): RunReport => ({
				name,
				tried: Atomics.load(this.counter, 0),
				failures: 0,
				examples: [],
				ms: Math.round(performance.now() - t0),
				seed: options.seed
			});
			const finish = (report: RunReport, healthy: boolean) => {
				clearInterval(watch);
				this.worker.off('message', onMessage);
				this.worker.off('error', onError);
				if (!healthy) this.stop();
				resolve(report);
			};
			const watch = setInterval(() => {
				const now = Atomics.load(this.counter, 0);
				const limit = now === 0 && !this.loaded ? STARTUP_MS : hangMs;
				if (now !== last) {
					last = now;
					since = performance.now();
					if (now > 0) this.loaded = true;
				} else if (performance.now() - since > limit) {
					const stalled = Math.round(performance.now() - since);
					const reason = `no progress for ${stalled} ms: a hang at input ${now} of seed ${options.seed}`;
					finish(
						{
							...base(),
							failures: 1,
							hang: { afterInputs: now, ms: stalled },
							examples: [{ reason, input: '(reproduce with the seed and the input number)' }]
						},
						false
					);
				}
			}, 100);
			const onMessage = (report: RunReport) => {
				this.loaded = true;
				finish(report, true);
			};
			const onError = (error: Error) =>
				finish(
					{
						...base(),
						failures: 1,
						examples: [
							{
								reason: `the worker failed: ${error.name}: ${error.message}`,
								input: `(input ${Atomics.load(this.counter, 0)} of seed ${options.seed})`
							}
						]
					},
					false
				);
			this.worker.on('message', onMessage);
			this.worker.once('error', onError);
			this.worker.postMessage(job);
		});
	}

	stop(): void {
		this.alive = false;
		void this.worker.terminate();
	}
}

/** Every target, `workers` at a time; reports in the order given. */
export async function runPool(jobs: Job[], pool: PoolOptions): Promise<RunReport[]> {
	const reports: RunReport[] = new Array(jobs.length);
	let next = 0;
	const lane = async () => {
		let thread: FuzzThread | undefined;
		while (next < jobs.length) {
			const i = next++;
			if (!thread?.alive) thread = new FuzzThread(pool.heapMb ?? 768);
			reports[i] = await thread.run(jobs[i]!, pool.hangMs);
			pool.onDone?.(reports[i]!);
		}
		thread?.stop();
	};
	await Promise.all(Array.from({ length: Math.max(1, pool.workers) }, lane));
	return reports;
}
