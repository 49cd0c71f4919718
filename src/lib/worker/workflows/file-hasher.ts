/**
 * BLAKE3 of a file, streamed in slices so a 2 GiB file never sits in memory whole. The WASM loads
 * lazily, once, through a memoised promise that is cleared if loading fails.
 */
import { createBLAKE3, type IHasher } from 'hash-wasm';

/** Updates are cut to this size: some BLAKE3 builds miscompute single updates above 1 MiB (GUIDE §5). */
export const UPDATE_SLICE = 1024 * 1024;

let ready: Promise<unknown> | undefined;

function loadOnce(): Promise<unknown> {
	ready ??= createBLAKE3().catch((error: unknown) => {
		ready = undefined;
		throw error;
	});
	return ready;
}

export interface HashProgress {
	loaded: number;
	total: number;
}

export async function blake3OfBlob(blob: Blob, onProgress?: (p: HashProgress) => void, signal?: AbortSignal): Promise<string> {
	await loadOnce();
	const hasher: IHasher = await createBLAKE3();
	hasher.init();
	const reader = blob.stream().getReader();
	let loaded = 0;
	try {
		for (;;) {
			if (signal?.aborted) throw new DOMException('Hashing was cancelled.', 'AbortError');
			const { done, value } = await reader.read();
			if (done) break;
			for (let at = 0; at < value.length; at += UPDATE_SLICE) hasher.update(value.subarray(at, at + UPDATE_SLICE));
			loaded += value.length;
			onProgress?.({ loaded, total: blob.size });
		}
	} finally {
		reader.releaseLock();
	}
	return hasher.digest('hex');
}

/** The hash cache key: a file's identity as the browser sees it. */
export function fileIdentity(file: { name: string; size: number; lastModified: number }): string {
	return `${file.name}|${file.size}|${file.lastModified}`;
}
