/**
 * Streaming BLAKE3 (unkeyed, 32-byte output) on the SIMD kernel. Input collects in the kernel's
 * memory one 1 MiB batch at a time; a full batch is hashed as one 256-chunk subtree (chunks four at
 * a time, then parent levels four at a time) only once more input arrives, because the last node of
 * the input must be finalised as the root. Subtree chaining values merge on a stack as in BLAKE3's
 * reference hasher; the tail and the root go through the scalar compression function.
 */
import { BLAKE3_KERNEL_BASE64 } from './blake3-kernel-bytes';
import { BLOCK_LEN, CHUNK_END, CHUNK_LEN, CHUNK_START, IV, PARENT, ROOT, blockWords, compress, parentBlock } from './blake3-compress';
import { KERNEL_LAYOUT } from './kernel-layout';

export interface Kernel {
	memory: WebAssembly.Memory;
	hashChunks(input: number, chunks: number, counterLo: number, counterHi: number, out: number): void;
	hashParents(input: number, parents: number, out: number): void;
}

/** A node not yet compressed into a chaining value: it may still turn out to be the root. */
interface PendingNode {
	cv: ArrayLike<number>;
	block: ArrayLike<number>;
	counter: number;
	blockLen: number;
	flags: number;
}

const BATCH = KERNEL_LAYOUT.batchBytes;
const BATCH_CHUNKS = BATCH / CHUNK_LEN;
const BATCH_LEVELS = Math.log2(BATCH_CHUNKS);

export class Blake3 {
	readonly #kernel: Kernel;
	readonly #bytes: Uint8Array;
	readonly #words: Uint32Array;
	/** Chaining values of finished subtrees, largest (leftmost) first. */
	readonly #stack: Uint32Array[] = [];
	#buffered = 0;
	#chunksDone = 0;

	constructor(kernel: Kernel) {
		this.#kernel = kernel;
		this.#bytes = new Uint8Array(kernel.memory.buffer);
		this.#words = new Uint32Array(kernel.memory.buffer);
	}

	update(data: Uint8Array): this {
		for (let at = 0; at < data.length;) {
			if (this.#buffered === BATCH) this.#hashFullBatch();
			const take = Math.min(BATCH - this.#buffered, data.length - at);
			this.#bytes.set(data.subarray(at, at + take), this.#buffered);
			this.#buffered += take;
			at += take;
		}
		return this;
	}

	/** The hash as 64 lowercase hex digits. The hasher is spent afterwards. */
	digestHex(): string {
		let node = this.#finishTail();
		for (let i = this.#stack.length - 1; i >= 0; i--) {
			node = { cv: IV, block: parentBlock(this.#stack[i]!, chainingValue(node)), counter: 0, blockLen: BLOCK_LEN, flags: PARENT };
		}
		const root = compress(node.cv, node.block, node.counter, node.blockLen, node.flags | ROOT);
		let hex = '';
		for (let i = 0; i < 8; i++) {
			const w = root[i]!;
			for (let b = 0; b < 4; b++) hex += ((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0');
		}
		return hex;
	}

	#hashFullBatch(): void {
		const { cvOffset } = KERNEL_LAYOUT;
		this.#kernel.hashChunks(0, BATCH_CHUNKS, this.#chunksDone >>> 0, Math.floor(this.#chunksDone / 0x1_0000_0000), cvOffset);
		for (let parents = BATCH_CHUNKS / 2; parents >= 1; parents /= 2) this.#kernel.hashParents(cvOffset, parents, cvOffset);
		this.#pushSubtree(this.#cvAt(cvOffset), BATCH_LEVELS);
		this.#buffered = 0;
	}

	/**
	 * Adds the chaining value of a subtree of 2^level chunks that starts at `#chunksDone`, merging
	 * it with completed siblings on the stack (never the last one: more input is known to follow).
	 */
	#pushSubtree(cv: Uint32Array, level: number): void {
		this.#chunksDone += 2 ** level;
		let merged = cv;
		for (let total = this.#chunksDone / 2 ** level; total % 2 === 0; total /= 2) {
			merged = compress(IV, parentBlock(this.#stack.pop()!, merged), 0, BLOCK_LEN, PARENT).slice(0, 8);
		}
		this.#stack.push(merged);
	}

	/** Hashes the buffered remainder: its whole chunks but the last, then returns the last chunk's node. */
	#finishTail(): PendingNode {
		const { cvOffset } = KERNEL_LAYOUT;
		const wholeBefore = this.#buffered > 0 ? Math.floor((this.#buffered - 1) / CHUNK_LEN) : 0;
		if (wholeBefore > 0) {
			const first = this.#chunksDone;
			this.#kernel.hashChunks(0, wholeBefore, first >>> 0, Math.floor(first / 0x1_0000_0000), cvOffset);
			for (let i = 0; i < wholeBefore; i++) this.#pushSubtree(this.#cvAt(cvOffset + 32 * i), 0);
		}
		const last = this.#bytes.subarray(wholeBefore * CHUNK_LEN, this.#buffered);
		const blocks = Math.max(1, Math.ceil(last.length / BLOCK_LEN));
		let cv: ArrayLike<number> = IV;
		for (let b = 0; b < blocks - 1; b++) {
			const flags = b === 0 ? CHUNK_START : 0;
			cv = compress(cv, blockWords(last.subarray(b * BLOCK_LEN)), this.#chunksDone, BLOCK_LEN, flags).slice(0, 8);
		}
		const lastBlock = last.subarray((blocks - 1) * BLOCK_LEN);
		const flags = (blocks === 1 ? CHUNK_START : 0) | CHUNK_END;
		return { cv, block: blockWords(lastBlock), counter: this.#chunksDone, blockLen: lastBlock.length, flags };
	}

	#cvAt(offset: number): Uint32Array {
		return this.#words.slice(offset / 4, offset / 4 + 8);
	}
}

function chainingValue(node: PendingNode): Uint32Array {
	return compress(node.cv, node.block, node.counter, node.blockLen, node.flags).slice(0, 8);
}

let compiled: Promise<WebAssembly.Module> | undefined;

function kernelModule(): Promise<WebAssembly.Module> {
	compiled ??= WebAssembly.compile(decodeBase64(BLAKE3_KERNEL_BASE64)).catch((error: unknown) => {
		compiled = undefined;
		throw error;
	});
	return compiled;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
	const binary = atob(text);
	const bytes = new Uint8Array(binary.length);
	for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
	return bytes;
}

/** A kernel instance of its own: 1.06 MiB of memory that no other hasher touches. */
export async function createKernel(): Promise<Kernel> {
	const instance = await WebAssembly.instantiate(await kernelModule());
	return instance.exports as unknown as Kernel;
}

export async function createBlake3(): Promise<Blake3> {
	return new Blake3(await createKernel());
}

let validated: boolean | undefined;

/** Whether this engine runs WebAssembly SIMD, which the kernel needs. */
export function simdSupported(): boolean {
	validated ??= WebAssembly.validate(decodeBase64(BLAKE3_KERNEL_BASE64));
	return validated;
}
