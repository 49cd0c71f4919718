/**
 * Property: whatever the bytes, the reader returns a value or a typed error; it never throws, never
 * reads past the file, and hangs are caught by a per-input time limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_READ_BYTES, MAX_INFLATED_TEXT_BYTES } from './limits';
import { fixture, FIXTURES, read } from './workflow-files.fixture';

const KINDS = ['truncated', 'corrupt', 'too-large', 'no-workflow', 'unsupported'];
const MAGICS = [
	'\x89PNG\r\n\x1a\n',
	'RIFF\0\0\0\0WEBP',
	'fLaC',
	'ID3\x04\0\0',
	'OggS\0',
	'\0\0\0\x18ftypisom',
	'\x1a\x45\xdf\xa3',
	'\xff\xfb',
	''
].map((m) => Uint8Array.from(m, (c) => c.charCodeAt(0)));
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

type Mutation = { at: number; kind: 'set' | 'delete' | 'insert' | 'cut'; bytes: Uint8Array };

function mutate(original: Uint8Array, mutations: Mutation[]): Uint8Array {
	let bytes = original.slice();
	for (const m of mutations) {
		const at = m.at % (bytes.length + 1);
		if (m.kind === 'set') {
			bytes = bytes.slice();
			bytes.set(m.bytes.subarray(0, bytes.length - at), at);
		} else if (m.kind === 'delete') bytes = new Uint8Array([...bytes.subarray(0, at), ...bytes.subarray(at + m.bytes.length)]);
		else if (m.kind === 'insert') bytes = new Uint8Array([...bytes.subarray(0, at), ...m.bytes, ...bytes.subarray(at)]);
		else bytes = bytes.subarray(0, at);
	}
	return bytes;
}

const mutation = fc.record({
	at: fc.nat(),
	kind: fc.constantFrom('set', 'set', 'set', 'delete', 'insert', 'cut'),
	bytes: fc.uint8Array({ minLength: 1, maxLength: 8 })
}) as fc.Arbitrary<Mutation>;

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
