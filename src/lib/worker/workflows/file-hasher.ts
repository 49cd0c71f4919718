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

/** Bytes read per step. Two are alive at most: the one being hashed and the one being read. */
export const READ_SLICE = 4 * 1024 * 1024;

/**
 * Reads fixed slices, starting the read of the next one before hashing the current one, so reading
 * (done off this thread) and hashing overlap, and memory stays bounded by two slices.
 */
export async function blake3OfBlob(
	blob: Blob,
	onProgress?: (p: HashProgress) => void,
	signal?: AbortSignal,
	sliceBytes = READ_SLICE
): Promise<string> {
	await loadOnce();
	const hasher: IHasher = await createBLAKE3();
	hasher.init();
	const read = (from: number) => blob.slice(from, Math.min(blob.size, from + sliceBytes)).arrayBuffer();
	let next = blob.size > 0 ? read(0) : undefined;
	for (let offset = 0; next; offset += sliceBytes) {
		if (signal?.aborted) throw new DOMException('Hashing was cancelled.', 'AbortError');
		const current = new Uint8Array(await next);
		next = offset + sliceBytes < blob.size ? read(offset + sliceBytes) : undefined;
		for (let at = 0; at < current.length; at += UPDATE_SLICE) hasher.update(current.subarray(at, at + UPDATE_SLICE));
		onProgress?.({ loaded: Math.min(blob.size, offset + current.length), total: blob.size });
	}
	return hasher.digest('hex');
}

/** The hash cache key: a file's identity as the browser sees it. */
export function fileIdentity(file: { name: string; size: number; lastModified: number }): string {
	return `${file.name}|${file.size}|${file.lastModified}`;
}
