/**
 * For tests: input that exposes slicing mistakes, and Debian's `b3sum` as the independent judge.
 *
 * Where `b3sum` is missing, the cross-checks are skipped with a message on a developer's machine and
 * fail when `CI` is set: CI can never pass without them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';

let installed: boolean | undefined;

/** Whether `b3sum` runs here. */
export function b3sumInstalled(): boolean {
	if (installed === undefined) {
		try {
			execFileSync('b3sum', ['--version'], { stdio: 'ignore' });
			installed = true;
		} catch {
			// Missing or not runnable: the cross-checks below say so, one way or the other.
			installed = false;
		}
	}
	return installed;
}

export const B3SUM_MISSING =
	'b3sum is not installed, so the BLAKE3 cross-check against it is skipped (Debian: apt install b3sum). With CI set, this fails instead.';

function failForMissingB3sum(): never {
	throw new Error(`${B3SUM_MISSING} CI must run the cross-check: install b3sum on the runner.`);
}

/** What becomes of tests that need `b3sum`: they run where it is, fail on CI where it is not, and are skipped elsewhere. */
export function b3sumGate(installed: boolean, env: Record<string, string | undefined>): 'run' | 'fail' | 'skip' {
	if (installed) return 'run';
	return env.CI ? 'fail' : 'skip';
}

/**
 * `describe` for tests that need `b3sum`: skipped with a clear message where it is missing, and one
 * failing test in its place when the `CI` environment variable is set.
 */
export function describeWithB3sum(name: string, tests: () => void): void {
	const gate = b3sumGate(b3sumInstalled(), process.env);
	if (gate === 'run') describe(name, tests);
	else if (gate === 'fail') {
		describe(name, () => {
			it('needs b3sum on CI', failForMissingB3sum);
		});
	} else {
		console.warn(`${name}: ${B3SUM_MISSING}`);
		describe.skip(`${name} (skipped: b3sum is not installed)`, tests);
	}
}

/** `it` for one test that needs `b3sum`, under the same rule as `describeWithB3sum`. */
export function itWithB3sum(name: string, test: () => Promise<void> | void): void {
	const gate = b3sumGate(b3sumInstalled(), process.env);
	if (gate === 'run') it(name, test);
	else if (gate === 'fail') it(name, failForMissingB3sum);
	else it.skip(`${name} (skipped: b3sum is not installed)`, test);
}

/**
 * Digests `b3sum --no-names` printed for `pseudoRandomBytes(size, size + 3)`, recorded so an
 * implementation can be checked where b3sum is missing; `blake3.test.ts` checks them against b3sum.
 */
export const B3SUM_DIGESTS: ReadonlyArray<readonly [size: number, digest: string]> = [
	[0, 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262'],
	[1, '63ce92e311ebd4c2b383b6e6dadac95c39efb5d789eba6fb631dd32c4ba0ec80'],
	[1023, 'b579db807e0531e2c8d949e403c58f65eb380ad5c88bfdb33e485d08f644474e'],
	[1024, 'fe0b8a08b9e7c82c098b1641eb854b67e1be4093132d2de570d725f6e8fc991f'],
	[1025, '45cc5212b0b6ed3ac87653d66d05e3bdb22302160126f560d5175aa3a0c4d4ce'],
	[2048, 'bc5ee486ead1b49b3280bcf64c8f399638d7da82ed92742fcca0f1b649f88d81'],
	[4097, '4674eba4e5a00212e063094301ca9d2f71f849bdcd1661cc18e7a0bab2fe34b3'],
	[1048575, '8c74c644bcfcb709ff312b227068b517454ad9e47fcac234797707e2254f6afe'],
	[1048576, 'cdab86f7ca8b417054edfd068f94e75292f4876c88bc3bd637b526cac65796be'],
	[1048577, '7b95e85fb976180c2c0331fccd77a6427198894365f48ab52275e4f43d7b450e'],
	[3158073, '4dc8a644f2fedb8587fa09f3f32b40bfa376bf1ab8bf1772284184333c847811']
];

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
