/**
 * A stand-in for `client/worker-bridge.svelte` in store tests: it counts subscriptions, lets a test
 * emit worker events, and answers API calls with what the test gave (a call nobody answered fails
 * loudly). Install it with
 * `vi.mock('$lib/core/state/worker-bridge.svelte', () => import('./testing/fake-bridge'))`.
 */
import type { WorkerApi, WorkerEvent } from '$lib/core/protocol/worker-api';
import { cancellableCall } from '$lib/core/state/cancellable-call';

type Listener = (event: WorkerEvent) => void;
type Answer<K extends keyof WorkerApi> = (input: Parameters<WorkerApi[K]>[0]) => unknown;

class FakeBridge {
	readonly listeners = new Set<Listener>();
	/** Calls made, by method name, with their inputs. */
	readonly calls = new Map<string, unknown[]>();
	private readonly answers = new Map<string, (input: unknown) => unknown>();

	answer<K extends keyof WorkerApi>(method: K, answer: Answer<K>): void {
		this.answers.set(method, answer as (input: unknown) => unknown);
	}

	emit(event: WorkerEvent): void {
		for (const listener of [...this.listeners]) listener(event);
	}

	callsOf(method: keyof WorkerApi): unknown[] {
		return this.calls.get(method) ?? [];
	}

	reset(): void {
		this.listeners.clear();
		this.calls.clear();
		this.answers.clear();
	}

	readonly api = new Proxy({} as WorkerApi, {
		get: (_target, method) => (input: unknown) => {
			const name = String(method);
			this.calls.set(name, [...(this.calls.get(name) ?? []), input]);
			const answer = this.answers.get(name);
			if (!answer) return Promise.reject(new Error(`The fake bridge has no answer for ${name}.`));
			return Promise.resolve(answer(input));
		}
	});
}

export const bridge = new FakeBridge();

export function workerApi(): WorkerApi {
	return bridge.api;
}

export function onWorkerEvent(listener: Listener): () => void {
	bridge.listeners.add(listener);
	return () => bridge.listeners.delete(listener);
}

export function cancellable<T>(signal: AbortSignal | undefined, call: (operationId: string | undefined) => Promise<T>): Promise<T> {
	return cancellableCall(bridge.api, signal, call);
}

/** Counts object URLs made and revoked, in place of the real ones. */
export function countObjectUrls(vi: typeof import('vitest').vi): { live: Set<string>; made: () => number } {
	const live = new Set<string>();
	let made = 0;
	vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
		const url = `blob:test/${++made}`;
		live.add(url);
		return url;
	});
	vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url: string) => {
		live.delete(url);
	});
	return { live, made: () => made };
}
