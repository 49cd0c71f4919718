import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blake3OfBlob } from './file-hasher';

const MiB = 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'runboard-b3-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Deterministic bytes that are not all alike, so slicing mistakes change the digest. */
function bytes(size: number, seed: number): Uint8Array<ArrayBuffer> {
	const out = new Uint8Array(size);
	let x = seed >>> 0 || 1;
	for (let i = 0; i < size; i++) {
		x ^= x << 13;
		x ^= x >>> 17;
		x ^= x << 5;
		out[i] = x & 0xff;
	}
	return out;
}

function b3sum(data: Uint8Array, name: string): string {
	const path = join(dir, name);
	writeFileSync(path, data);
	return execFileSync('b3sum', ['--no-names', path], { encoding: 'utf8' }).trim();
}

describe('BLAKE3 of files, checked against Debian b3sum', () => {
	const sizes = [0, 1, 1023, 1024, 1025, 2048, MiB - 1, MiB, MiB + 1, 3 * MiB + 12345];
	it.each(sizes)('matches b3sum for %i bytes', async (size) => {
		const data = bytes(size, size + 7);
		expect(await blake3OfBlob(new Blob([data]))).toBe(b3sum(data, `s${size}.bin`));
	});

	it.each([1, 1000, 1024, 65_536, MiB, 2 * MiB + 1])('matches b3sum however the file is sliced (reads of %i bytes)', async (slice) => {
		const data = bytes(slice === 1 ? 5000 : 5 * MiB + 77, slice);
		expect(await blake3OfBlob(new Blob([data]), undefined, undefined, { bufferBytes: slice })).toBe(b3sum(data, `c${slice}.bin`));
	});

	it('matches b3sum for a file far larger than one slice, reporting progress to the end', async () => {
		const data = bytes(48 * MiB + 3, 99);
		const seen: number[] = [];
		const digest = await blake3OfBlob(new Blob([data]), (p) => seen.push(p.loaded));
		expect(digest).toBe(b3sum(data, 'large.bin'));
		expect(seen.at(-1)).toBe(data.length);
		expect(seen.length).toBeGreaterThan(10);
	});
});
