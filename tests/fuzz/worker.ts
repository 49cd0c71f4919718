/** One fuzz target in a worker thread: the pool watches its input counter to catch a hang. */
import { parentPort, workerData } from 'node:worker_threads';
import { runTarget, type RunOptions } from './property';
import { fuzzTarget } from './targets';

const { name, options, progress } = workerData as { name: string; options: Omit<RunOptions, 'onInput'>; progress: SharedArrayBuffer };
const counter = new Int32Array(progress);
const report = await runTarget(fuzzTarget(name), { ...options, onInput: () => Atomics.add(counter, 0, 1) });
parentPort!.postMessage(report);
