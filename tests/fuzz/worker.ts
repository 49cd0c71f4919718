/** A fuzz worker thread: runs each target it is sent, one at a time; the pool watches its input counter to catch a hang. */
import { parentPort, workerData } from 'node:worker_threads';
import { runTarget, type RunOptions } from './property';
import { fuzzTarget } from './targets';

const { progress } = workerData as { progress: SharedArrayBuffer };
const counter = new Int32Array(progress);
parentPort!.on('message', async ({ name, options }: { name: string; options: Omit<RunOptions, 'onInput'> }) => {
	const report = await runTarget(fuzzTarget(name), { ...options, onInput: () => Atomics.add(counter, 0, 1) });
	parentPort!.postMessage(report);
});
