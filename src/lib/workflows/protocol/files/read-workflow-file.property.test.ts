/**
 * Property: whatever the bytes, the reader returns a value or a typed error; it never throws, never
 * reads past the file, and hangs are caught by a per-input time limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_READ_BYTES, MAX_INFLATED_TEXT_BYTES } from './limits';
import { fixture, FIXTURES, read } from './workflow-files.fixture';
import { MAGICS, mutate, mutation } from './file-mutations.fixture';

const KINDS = ['truncated', 'corrupt', 'too-large', 'no-workflow', 'unsupported'];
const originals = FIXTURES.map(([name]) => fixture(name));

async function expectTypedResult(bytes: Uint8Array): Promise<void> {
	const result = await read(bytes, 'fuzz.bin');
	expect(result.bytesRead).toBeLessThanOrEqual(Math.min(bytes.length, MAX_FILE_READ_BYTES));
	if (result.ok) {
		expect(Object.getPrototypeOf(result.texts)).toBeNull();
		for (const value of Object.values(result.texts))
			expect(value!.length).toBeLessThanOrEqual(Math.max(bytes.length, MAX_INFLATED_TEXT_BYTES));
	} else {
		expect(KINDS).toContain(result.kind);
		expect(result.message).toContain('"fuzz.bin"');
		expect(result.message, 'a reader bug, not a property of the file').not.toMatch(/unexpected error/);
	}
}

/** A short run in the unit suite; raise FUZZ_RUNS for a long one. */
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 300);
const PER_INPUT_MS = 2000;

describe('the file reader under random input', () => {
	it('never throws on random bytes after a known magic number', async () => {
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...MAGICS), fc.uint8Array({ maxLength: 600 }), async (magic, rest) => {
				await expectTypedResult(new Uint8Array([...magic, ...rest]));
			}),
			{ numRuns: RUNS, timeout: PER_INPUT_MS }
		);
	});

	it('never throws on mutated real files', async () => {
		await fc.assert(
			fc.asyncProperty(fc.nat(originals.length - 1), fc.array(mutation, { minLength: 1, maxLength: 6 }), async (index, mutations) => {
				await expectTypedResult(mutate(originals[index]!, mutations));
			}),
			{ numRuns: RUNS, timeout: PER_INPUT_MS }
		);
	}, 60_000);
});
