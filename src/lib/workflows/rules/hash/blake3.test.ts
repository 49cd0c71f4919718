import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { B3SUM_DIGESTS, B3SUM_MISSING, b3sumGate, b3sumRunner, describeWithB3sum, pseudoRandomBytes as bytes } from './b3sum.fixture';
import { compileKernel, KERNEL_MODULE_PATH, KERNEL_WAT_PATH } from '../../../../../scripts/generate-blake3-kernel';
import { BLOCK_LEN, CHUNK_END, CHUNK_LEN, CHUNK_START, IV, blockWords, compress } from './blake3-compress';
import { createBlake3, createKernel } from './blake3';
import { KERNEL_LAYOUT } from './kernel-layout';

const MiB = 1024 * 1024;
const { b3sum, cleanup } = b3sumRunner();
afterAll(cleanup);

async function hashInSlices(data: Uint8Array, slice: number): Promise<string> {
	const hasher = await createBlake3();
	for (let at = 0; at < data.length; at += slice) hasher.update(data.subarray(at, at + slice));
	return hasher.digestHex();
}

describeWithB3sum('BLAKE3 on the SIMD kernel, checked against Debian b3sum', () => {
	const sizes = [
		0,
		1,
		BLOCK_LEN - 1,
		BLOCK_LEN,
		BLOCK_LEN + 1,
		CHUNK_LEN - 1,
		CHUNK_LEN,
		CHUNK_LEN + 1,
		2 * CHUNK_LEN,
		3 * CHUNK_LEN + 5,
		4 * CHUNK_LEN,
		4 * CHUNK_LEN + 1,
		5 * CHUNK_LEN - 1,
		MiB - 1,
		MiB,
		MiB + 1,
		2 * MiB,
		2 * MiB + CHUNK_LEN,
		7 * MiB + 12_345
	];
	it.each(sizes)('matches b3sum for %i bytes in one update', async (size) => {
		const data = bytes(size, size + 3);
		expect(await hashInSlices(data, Math.max(1, size))).toBe(b3sum(data));
	});

	it.each([1, 7, 64, 1000, CHUNK_LEN, 65_536, MiB - 3, MiB, 3 * MiB + 1])(
		'gives the same digest however input is cut (updates of %i bytes)',
		async (slice) => {
			const data = bytes(slice < 64 ? 9_000 : 6 * MiB + 77, slice);
			expect(await hashInSlices(data, slice)).toBe(b3sum(data));
		}
	);

	it('gives independent digests from two hashers used in turns', async () => {
		const [a, b] = [bytes(3 * MiB + 9, 1), bytes(2 * MiB + 1, 2)];
		const [ha, hb] = [await createBlake3(), await createBlake3()];
		for (let at = 0; at < Math.max(a.length, b.length); at += 100_000) {
			ha.update(a.subarray(at, at + 100_000));
			hb.update(b.subarray(at, at + 100_000));
		}
		expect([ha.digestHex(), hb.digestHex()]).toEqual([b3sum(a), b3sum(b)]);
	});
});

describeWithB3sum('the recorded b3sum digests', () => {
	it.each(B3SUM_DIGESTS)('are what b3sum prints for %i bytes', (size, digest) => {
		expect(b3sum(bytes(size, size + 3))).toBe(digest);
	});
});

describe('BLAKE3 on the SIMD kernel, against the recorded b3sum digests (runs without b3sum)', () => {
	it.each(B3SUM_DIGESTS)('matches for %i bytes', async (size, digest) => {
		expect(await hashInSlices(bytes(size, size + 3), 65_536)).toBe(digest);
	});
});

describe('the b3sum gate', () => {
	it.each([
		[true, {}, 'run'],
		[true, { CI: 'true' }, 'run'],
		[false, {}, 'skip'],
		[false, { CI: '' }, 'skip'],
		[false, { CI: 'true' }, 'fail'],
		[false, { CI: '1' }, 'fail']
	] as const)('with b3sum installed: %s, env %o: %s', (installed, env, expected) => {
		expect(b3sumGate(installed, env)).toBe(expected);
	});

	it('names what is missing and how to install it', () => {
		expect(B3SUM_MISSING).toMatch(/b3sum is not installed.*apt install b3sum/);
	});
});

describe('the kernel', () => {
	/** A whole chunk's chaining value the slow way: sixteen scalar compressions. */
	function chunkCv(chunk: Uint8Array, counter: number): number[] {
		let cv: ArrayLike<number> = IV;
		for (let b = 0; b < CHUNK_LEN / BLOCK_LEN; b++) {
			const flags = (b === 0 ? CHUNK_START : 0) | (b === 15 ? CHUNK_END : 0);
			cv = compress(cv, blockWords(chunk.subarray(b * BLOCK_LEN)), counter, BLOCK_LEN, flags).slice(0, 8);
		}
		return Array.from(cv);
	}

	it('carries each lane’s chunk counter into the high word, as files past 4 TiB need', async () => {
		const kernel = await createKernel();
		const input = bytes(4 * CHUNK_LEN, 11);
		new Uint8Array(kernel.memory.buffer).set(input);
		const first = 2 ** 32 - 2;
		kernel.hashChunks(0, 4, first >>> 0, 0, KERNEL_LAYOUT.cvOffset);
		const words = new Uint32Array(kernel.memory.buffer, KERNEL_LAYOUT.cvOffset, 32);
		for (let lane = 0; lane < 4; lane++) {
			const expected = chunkCv(input.subarray(lane * CHUNK_LEN, (lane + 1) * CHUNK_LEN), first + lane);
			expect(Array.from(words.subarray(8 * lane, 8 * lane + 8))).toEqual(expected);
		}
	});

	it('is the module the committed generator writes (regenerate with scripts/generate-blake3-kernel.ts)', async () => {
		const { wat, module } = await compileKernel();
		expect(readFileSync(KERNEL_WAT_PATH, 'utf8')).toBe(wat);
		expect(readFileSync(KERNEL_MODULE_PATH, 'utf8')).toBe(module);
	});
});
