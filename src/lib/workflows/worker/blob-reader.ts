/**
 * Reads a Blob from start to end through a callback, in bounded memory. The fast path is a BYOB
 * reader over `blob.stream()` that refills one buffer, so reading a 1 GiB file allocates nothing
 * per chunk; engines whose Blob streams are not byte streams, and reads that stall, continue from
 * where they stopped with `blob.slice(...).arrayBuffer()`, one slice read ahead.
 */

export interface ReadOptions {
	signal?: AbortSignal;
	/** The BYOB buffer, and the slice size of the fallback. */
	bufferBytes?: number;
	/** A read that settles later than this is abandoned, and reading goes on by slices. */
	stallMs?: number;
}

export const READ_BUFFER = 1024 * 1024;
const STALL_MS = 10_000;

/**
 * Streams being read. Chromium 156 sometimes never settles a read of a Blob byte stream that only
 * its reader references (measured: 3 of 30 reads of 1 GiB; none of 35 when referenced), so each
 * stream is held here until its reading ends.
 */
const inFlight = new Set<ReadableStream>();

/** Calls `onBytes` with consecutive pieces of `blob`; a piece is only valid during the call. */
export async function readBlob(blob: Blob, onBytes: (piece: Uint8Array) => void, options: ReadOptions = {}): Promise<void> {
	const bufferBytes = options.bufferBytes ?? READ_BUFFER;
	let offset = 0;
	const take = (piece: Uint8Array) => {
		onBytes(piece);
		offset += piece.length;
	};
	const outcome = await readByob(blob, take, bufferBytes, options.stallMs ?? STALL_MS, options.signal);
	if (outcome === 'done') return;
	await readBySlices(blob, offset, take, bufferBytes, options.signal);
}

type ByobOutcome = 'done' | 'unsupported' | 'stalled';

async function readByob(
	blob: Blob,
	take: (piece: Uint8Array) => void,
	bufferBytes: number,
	stallMs: number,
	signal: AbortSignal | undefined
): Promise<ByobOutcome> {
	const stream = blob.stream();
	let reader: ReadableStreamBYOBReader;
	try {
		reader = stream.getReader({ mode: 'byob' });
	} catch {
		return 'unsupported'; // not a byte stream in this engine
	}
	inFlight.add(stream);
	try {
		let buffer = new ArrayBuffer(bufferBytes);
		for (;;) {
			throwIfAborted(signal);
			const result = await settlesWithin(reader.read(new Uint8Array(buffer)), stallMs);
			if (result === 'stalled') {
				void reader.cancel().catch(() => undefined);
				return 'stalled';
			}
			if (result.done || !result.value) return 'done';
			take(result.value);
			buffer = result.value.buffer;
		}
	} catch (error) {
		void reader.cancel().catch(() => undefined);
		throw error;
	} finally {
		inFlight.delete(stream);
	}
}

async function readBySlices(
	blob: Blob,
	from: number,
	take: (piece: Uint8Array) => void,
	sliceBytes: number,
	signal: AbortSignal | undefined
): Promise<void> {
	const read = (at: number) => blob.slice(at, Math.min(blob.size, at + sliceBytes)).arrayBuffer();
	let next = from < blob.size ? read(from) : undefined;
	for (let at = from; next; at += sliceBytes) {
		throwIfAborted(signal);
		const current = new Uint8Array(await next);
		next = at + sliceBytes < blob.size ? read(at + sliceBytes) : undefined;
		take(current);
	}
}

function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<T | 'stalled'> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const stalled = new Promise<'stalled'>((resolve) => (timer = setTimeout(() => resolve('stalled'), ms)));
	return Promise.race([promise, stalled]).finally(() => clearTimeout(timer));
}

function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new DOMException('Reading the file was cancelled.', 'AbortError');
}
