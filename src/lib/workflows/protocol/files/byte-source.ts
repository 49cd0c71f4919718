/**
 * Random access to a file's bytes, so a reader can seek past image and media data instead of
 * loading it. A `Blob` (a picked `File`) becomes one through `blobSource`; tests use `bytesSource`.
 */
import { FileProblem } from './file-problem';
import { formatMiB, MAX_FILE_READ_BYTES } from './limits';

export interface ByteSource {
	readonly size: number;
	/** The bytes in [start, end); end is at most `size`. */
	slice(start: number, end: number): Promise<Uint8Array>;
}

export function blobSource(blob: Blob): ByteSource {
	return {
		size: blob.size,
		slice: async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer())
	};
}

export function bytesSource(bytes: Uint8Array): ByteSource {
	return { size: bytes.length, slice: async (start, end) => bytes.subarray(start, end) };
}

/** Small reads fetch at least this much, so walking many headers in a row costs few slices. */
const WINDOW = 4096;
/** ...and this much after a jump over media data, where the next header is usually far away again. */
const JUMP_WINDOW = 256;
/** A file this small is fetched whole on the first read. */
const SMALL_FILE = 64 * 1024;

/**
 * Reads a source with a budget on the total bytes fetched. Every read is bounds-checked: a read past
 * the end means the file is cut off.
 */
export class FileReader {
	bytesRead = 0;
	private window: { start: number; bytes: Uint8Array } | null = null;

	constructor(
		private readonly source: ByteSource,
		private readonly signal: AbortSignal,
		private readonly budget = MAX_FILE_READ_BYTES
	) {}

	get size(): number {
		return this.source.size;
	}

	/** Exactly `length` bytes at `start`; throws a `truncated` problem when the file ends first. */
	async read(start: number, length: number, what: string): Promise<Uint8Array> {
		if (start + length > this.size) throw new FileProblem('truncated', `${what} runs past the end of the file`);
		return this.fetch(start, length);
	}

	/** Up to `length` bytes at `start`, fewer at the end of the file. */
	async readUpTo(start: number, length: number): Promise<Uint8Array> {
		return this.fetch(start, Math.max(0, Math.min(length, this.size - start)));
	}

	private async fetch(start: number, length: number): Promise<Uint8Array> {
		if (this.signal.aborted) throw new FileProblem('aborted', 'reading was cancelled');
		const w = this.window;
		if (w && start >= w.start && start + length <= w.start + w.bytes.length) {
			return w.bytes.subarray(start - w.start, start - w.start + length);
		}
		const near = !w || (start >= w.start && start <= w.start + w.bytes.length + WINDOW);
		const window = near ? WINDOW : JUMP_WINDOW;
		const want = this.size <= SMALL_FILE ? this.size - start : Math.max(length, Math.min(window, this.size - start));
		if (this.bytesRead + want > this.budget) {
			throw new FileProblem('too-large', `its metadata needs more than ${formatMiB(this.budget)} to be read`);
		}
		this.bytesRead += want;
		let bytes: Uint8Array;
		try {
			bytes = await this.source.slice(start, start + want);
		} catch (error) {
			// E.g. NotReadableError: the file was moved or changed after it was picked.
			const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
			throw new FileProblem('corrupt', `the browser could not read it from disk (${reason}); choose the file again`);
		}
		if (this.signal.aborted) throw new FileProblem('aborted', 'reading was cancelled');
		if (bytes.length !== want) throw new FileProblem('truncated', 'the file ended while being read');
		if (want < 1 << 20) this.window = { start, bytes };
		return bytes.subarray(0, length);
	}
}
