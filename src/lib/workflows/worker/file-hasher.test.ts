import { afterAll, expect, it } from 'vitest';
import { b3sumRunner, describeWithB3sum, pseudoRandomBytes as bytes } from '../rules/hash/b3sum.fixture';
import { blake3OfBlob } from './file-hasher';

const MiB = 1024 * 1024;

const { b3sum, cleanup } = b3sumRunner();
afterAll(cleanup);

describeWithB3sum('BLAKE3 of files, checked against Debian b3sum', () => {
	const sizes = [0, 1, 1023, 1024, 1025, 2048, MiB - 1, MiB, MiB + 1, 3 * MiB + 12345];
	it.each(sizes)('matches b3sum for %i bytes', async (size) => {
		const data = bytes(size, size + 7);
		expect(await blake3OfBlob(new Blob([data]))).toBe(b3sum(data));
	});

	it.each([1, 1000, 1024, 65_536, MiB, 2 * MiB + 1])('matches b3sum however the file is sliced (reads of %i bytes)', async (slice) => {
		const data = bytes(slice === 1 ? 5000 : 5 * MiB + 77, slice);
		expect(await blake3OfBlob(new Blob([data]), undefined, undefined, { bufferBytes: slice })).toBe(b3sum(data));
	});

	it('matches b3sum for a file far larger than one slice, reporting progress to the end', async () => {
		const data = bytes(48 * MiB + 3, 99);
		const seen: number[] = [];
		const digest = await blake3OfBlob(new Blob([data]), (p) => seen.push(p.loaded));
		expect(digest).toBe(b3sum(data));
		expect(seen.at(-1)).toBe(data.length);
		expect(seen.length).toBeGreaterThan(10);
	});
});
