/** For tests: input that exposes slicing mistakes, and Debian's `b3sum` as the independent judge. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Deterministic bytes that are not all alike (xorshift), so a misplaced byte changes the digest. */
export function pseudoRandomBytes(size: number, seed: number): Uint8Array<ArrayBuffer> {
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

/** Runs `b3sum` on the bytes, through a file in a folder of its own that `cleanup` removes. */
export function b3sumRunner(): { b3sum(data: Uint8Array): string; cleanup(): void } {
	const dir = mkdtempSync(join(tmpdir(), 'runboard-b3sum-'));
	let n = 0;
	return {
		b3sum(data) {
			const path = join(dir, `input-${n++}.bin`);
			writeFileSync(path, data);
			return execFileSync('b3sum', ['--no-names', path], { encoding: 'utf8' }).trim();
		},
		cleanup: () => rmSync(dir, { recursive: true, force: true })
	};
}
