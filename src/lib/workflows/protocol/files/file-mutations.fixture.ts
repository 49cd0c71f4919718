/** Test helpers: hostile variants of real files (their magic numbers, and small edits of the fixtures). */
import fc from 'fast-check';

/** The first bytes of each format the reader knows, and none. */
export const MAGICS = [
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

/** One small edit of a file: overwrite, delete, insert or cut at a position. */
export type Mutation = { at: number; kind: 'set' | 'delete' | 'insert' | 'cut'; bytes: Uint8Array };

export function mutate(original: Uint8Array, mutations: Mutation[]): Uint8Array {
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

export const mutation = fc.record({
	at: fc.nat(),
	kind: fc.constantFrom('set', 'set', 'set', 'delete', 'insert', 'cut'),
	bytes: fc.uint8Array({ minLength: 1, maxLength: 8 })
}) as fc.Arbitrary<Mutation>;
