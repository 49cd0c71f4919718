/**
 * The page's handle on the worker: one instance, one comlink proxy, one subscription fanned out
 * to the stores. The page never does network I/O itself.
 */
import * as Comlink from 'comlink';
import type { WorkerApi, WorkerEvent } from '$lib/worker/api';
import RunboardWorker from '$lib/worker/index?worker';

type Listener = (event: WorkerEvent) => void;

let remote: Comlink.Remote<WorkerApi> | undefined;
const listeners = new Set<Listener>();

export function workerApi(): Comlink.Remote<WorkerApi> {
	if (!remote) {
		remote = Comlink.wrap<WorkerApi>(new RunboardWorker({ name: 'runboard' }));
		void remote.subscribe(Comlink.proxy((event: WorkerEvent) => listeners.forEach((l) => l(event))));
	}
	return remote;
}

export function onWorkerEvent(listener: Listener): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}
