/**
 * BLAKE3's compression function in plain TypeScript, one block at a time. The hot path (whole
 * chunks and parent levels, four at once) runs in the SIMD kernel; this serves the few blocks
 * around it: the last chunk, merges of subtree chaining values, and the root.
 */

export const IV: readonly number[] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** How the message words are reordered between rounds. */
export const MSG_PERMUTATION: readonly number[] = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];

export const CHUNK_START = 1;
export const CHUNK_END = 2;
export const PARENT = 4;
export const ROOT = 8;

export const BLOCK_LEN = 64;
export const CHUNK_LEN = 1024;

/** The 7 rounds' message orders: round r uses word `MESSAGE_SCHEDULE[r][k]` where round 0 uses `k`. */
export const MESSAGE_SCHEDULE: readonly (readonly number[])[] = (() => {
	const rounds = [Array.from({ length: 16 }, (_, k) => k)];
	for (let r = 1; r < 7; r++) rounds.push(MSG_PERMUTATION.map((p) => rounds[r - 1]![p]!));
	return rounds;
})();

/** The column step and then the diagonal step of one round: (a, b, c, d) state indices per G. */
export const G_LANES: readonly (readonly [number, number, number, number])[] = [
	[0, 4, 8, 12],
	[1, 5, 9, 13],
	[2, 6, 10, 14],
	[3, 7, 11, 15],
	[0, 5, 10, 15],
	[1, 6, 11, 12],
	[2, 7, 8, 13],
	[3, 4, 9, 14]
];

const rotr = (x: number, n: number) => ((x >>> n) | (x << (32 - n))) >>> 0;

/**
 * One compression: chaining value `cv` (8 words), a 16-word block, a 64-bit counter, the number of
 * meaningful bytes in the block and the flags. Returns the 16-word output; its first 8 words are the
 * next chaining value (or, with ROOT, the first 32 bytes of the hash).
 */
export function compress(cv: ArrayLike<number>, block: ArrayLike<number>, counter: number, blockLen: number, flags: number): Uint32Array {
	const v = new Uint32Array(16);
	for (let i = 0; i < 8; i++) v[i] = cv[i]!;
	for (let i = 0; i < 4; i++) v[8 + i] = IV[i]!;
	v[12] = counter >>> 0;
	v[13] = Math.floor(counter / 0x1_0000_0000) >>> 0;
	v[14] = blockLen;
	v[15] = flags;
	for (const order of MESSAGE_SCHEDULE) {
		G_LANES.forEach(([a, b, c, d], g) => {
			const mx = block[order[2 * g]!]!;
			const my = block[order[2 * g + 1]!]!;
			v[a] = v[a]! + v[b]! + mx;
			v[d] = rotr(v[d]! ^ v[a]!, 16);
			v[c] = v[c]! + v[d]!;
			v[b] = rotr(v[b]! ^ v[c]!, 12);
			v[a] = v[a]! + v[b]! + my;
			v[d] = rotr(v[d]! ^ v[a]!, 8);
			v[c] = v[c]! + v[d]!;
			v[b] = rotr(v[b]! ^ v[c]!, 7);
		});
	}
	for (let i = 0; i < 8; i++) {
		v[i] = v[i]! ^ v[i + 8]!;
		v[i + 8] = v[i + 8]! ^ cv[i]!;
	}
	return v;
}

/** Up to 64 bytes as 16 little-endian words, zero-padded. */
export function blockWords(bytes: Uint8Array): Uint32Array {
	const padded = new Uint8Array(BLOCK_LEN);
	padded.set(bytes.subarray(0, BLOCK_LEN));
	const view = new DataView(padded.buffer);
	return Uint32Array.from({ length: 16 }, (_, i) => view.getUint32(4 * i, true));
}

/** A parent node's block: the left and right children's chaining values side by side. */
export function parentBlock(left: ArrayLike<number>, right: ArrayLike<number>): Uint32Array {
	const block = new Uint32Array(16);
	for (let i = 0; i < 8; i++) {
		block[i] = left[i]!;
		block[8 + i] = right[i]!;
	}
	return block;
}
