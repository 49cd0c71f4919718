import type { WorkerApi } from '$lib/core/protocol/worker-api';

/**
 * Runs a worker call that `signal` can stop. Comlink cannot pass an AbortSignal, so the call gets
 * an operation id and an abort becomes `cancelOperation(id)` (as Squoosh does); the worker then
 * answers the call with a `cancelled` error. Without a signal the call runs as it is.
 */
export async function cancellableCall<T>(
	api: Pick<WorkerApi, 'cancelOperation'>,
	signal: AbortSignal | undefined,
	call: (operationId: string | undefined) => Promise<T>
): Promise<T> {
	if (!signal) return call(undefined);
	const id = crypto.randomUUID();
	const cancel = () => void api.cancelOperation({ id });
	if (signal.aborted) cancel();
	else signal.addEventListener('abort', cancel, { once: true });
	try {
		return await call(id);
	} finally {
		signal.removeEventListener('abort', cancel);
	}
}
