/**
 * The page's handle on the worker: one instance, one comlink proxy, one subscription fanned out
 * to the stores. The page never does network I/O itself.
 *
 * Svelte state is made of proxies, which cannot be structured-cloned: every argument is
 * snapshotted here, at the one boundary, so no caller can forget.
 */
import * as Comlink from 'comlink';
import { snapshot } from './snapshot.svelte';
import type { WorkerApi, WorkerEvent } from '$lib/core/protocol/worker-api';
import { cancellableCall } from './cancellable-call';
import RunboardWorker from '$lib/app-worker/index?worker';

type Listener = (event: WorkerEvent) => void;

let api: Comlink.Remote<WorkerApi> | undefined;
const listeners = new Set<Listener>();

export function workerApi(): Comlink.Remote<WorkerApi> {
	if (!api) {
		const raw = Comlink.wrap<WorkerApi>(new RunboardWorker({ name: 'runboard' }));
		void raw.subscribe(Comlink.proxy((event: WorkerEvent) => listeners.forEach((l) => l(event))));
		api = new Proxy(raw, {
			get(target, method) {
				const call = Reflect.get(target, method) as (input: unknown) => unknown;
				return (input: unknown) => call(snapshot(input));
			}
		});
	}
	return api;
}

export function onWorkerEvent(listener: Listener): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}

/** Runs a worker call that `signal` can stop (see `cancellable-call.ts`). */
export function cancellable<T>(signal: AbortSignal | undefined, call: (operationId: string | undefined) => Promise<T>): Promise<T> {
	return cancellableCall(workerApi(), signal, call);
}
