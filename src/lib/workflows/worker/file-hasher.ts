/**
 * BLAKE3 of a file, streamed so a 2 GiB file never sits in memory whole. Hashing runs on our SIMD
 * kernel (about twice hash-wasm's speed, and faster than Chromium reads a file); an engine without
 * WebAssembly SIMD gets hash-wasm, loaded only then.
 */
import { createBlake3, simdSupported } from '../rules/hash/blake3';
import { readBlob, type ReadOptions } from './blob-reader';

export interface HashProgress {
	loaded: number;
	total: number;
}

interface StreamingHash {
	update(bytes: Uint8Array): void;
	digestHex(): string;
}

export async function createHasher(): Promise<StreamingHash> {
	if (simdSupported()) return createBlake3();
	const { createBLAKE3 } = await import('hash-wasm');
	const hasher = await createBLAKE3();
	hasher.init();
	return { update: (bytes) => void hasher.update(bytes), digestHex: () => hasher.digest('hex') };
}

/** Progress is reported each time this many more bytes are hashed, and at the end. */
const PROGRESS_STEP = 4 * 1024 * 1024;

export async function blake3OfBlob(
	blob: Blob,
	onProgress?: (p: HashProgress) => void,
	signal?: AbortSignal,
	read: Omit<ReadOptions, 'signal'> = {}
): Promise<string> {
	const hasher = await createHasher();
	let loaded = 0;
	let reported = 0;
	await readBlob(
		blob,
		(piece) => {
			hasher.update(piece);
			loaded += piece.length;
			if (loaded - reported >= PROGRESS_STEP) {
				reported = loaded;
				onProgress?.({ loaded, total: blob.size });
			}
		},
		{ ...read, signal }
	);
	if (reported < loaded) onProgress?.({ loaded, total: blob.size });
	return hasher.digestHex();
}

/** Bytes hashed between two looks at the signal: the worker yields there, so a cancel message can arrive. */
const BYTES_BETWEEN_YIELDS = 32 * 1024 * 1024;

/** BLAKE3 of bytes in memory (a bundle's entries), as lowercase hex; stops between pieces when `signal` aborts. */
export async function blake3OfBytes(bytes: Uint8Array, signal?: AbortSignal): Promise<string> {
	const hasher = await createHasher();
	for (let at = 0; at < bytes.length || at === 0; at += BYTES_BETWEEN_YIELDS) {
		if (at > 0) await new Promise<void>((resolve) => setTimeout(resolve, 0));
		signal?.throwIfAborted();
		hasher.update(bytes.subarray(at, at + BYTES_BETWEEN_YIELDS));
		if (bytes.length === 0) break;
	}
	return hasher.digestHex();
}

/** The hash cache key: a file's identity as the browser sees it. */
export function fileIdentity(file: { name: string; size: number; lastModified: number }): string {
	return `${file.name}|${file.size}|${file.lastModified}`;
}
