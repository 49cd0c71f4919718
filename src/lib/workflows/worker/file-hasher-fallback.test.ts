/**
 * The path an engine without WebAssembly SIMD takes: hash-wasm instead of our kernel. Forced here
 * by saying SIMD is missing, and checked against the digests b3sum printed.
 */
import { describe, expect, it, vi } from 'vitest';
import { B3SUM_DIGESTS, pseudoRandomBytes as bytes } from '../rules/hash/b3sum.fixture';
import * as blake3 from '../rules/hash/blake3';
import { blake3OfBlob } from './file-hasher';

vi.mock('../rules/hash/blake3', async (actual) => ({
	...(await actual<typeof import('../rules/hash/blake3')>()),
	simdSupported: () => false,
	createBlake3: vi.fn(() => Promise.reject(new Error('The SIMD kernel must not be used without SIMD.')))
}));

describe('BLAKE3 of files where WebAssembly SIMD is missing (hash-wasm)', () => {
	it.each(B3SUM_DIGESTS)('matches b3sum for %i bytes', async (size, digest) => {
		expect(await blake3OfBlob(new Blob([bytes(size, size + 3)]))).toBe(digest);
		expect(blake3.createBlake3).not.toHaveBeenCalled();
	});

	it('matches b3sum however the file is sliced', async () => {
		const [size, digest] = B3SUM_DIGESTS.at(-1)!;
		for (const bufferBytes of [1024, 65_536, 1 << 20])
			expect(await blake3OfBlob(new Blob([bytes(size, size + 3)]), undefined, undefined, { bufferBytes })).toBe(digest);
	});
});
