import { describe, expect, it } from 'vitest';
import { readSearchChunk, storedChunk } from './search-chunk';

const chunk = { after: 'tl:0000000000001:a', to: 'tl:0000000000003:c', ids: ['b', 'c'], texts: '\n\u0001red boat\u001e\n\u0001blue kite' };

describe('a stored chunk of search texts', () => {
	it('is read back as written, under the key of its last run', () => {
		expect(readSearchChunk(structuredClone(storedChunk(chunk)), chunk.to)).toEqual(chunk);
	});

	it('may hold no run (every run of a gap deleted)', () => {
		const empty = { ...chunk, ids: [], texts: '' };
		expect(readSearchChunk(storedChunk(empty), chunk.to)).toEqual(empty);
	});

	it('is a tombstone when written as null: its runs are read from their entries', () => {
		expect(readSearchChunk(null, chunk.to)).toBeNull();
	});

	it('is refused when it does not hold together', () => {
		const stored = storedChunk(chunk);
		expect(readSearchChunk(stored, 'tl:0000000000004:d')).toBeNull();
		expect(readSearchChunk({ ...stored, after: chunk.to }, chunk.to)).toBeNull();
		expect(readSearchChunk({ ...stored, texts: 'one text for two ids' }, chunk.to)).toBeNull();
		expect(readSearchChunk({ ...stored, ids: 'b\u001e' }, chunk.to)).toBeNull();
		expect(readSearchChunk({ ...stored, ids: ['b', 'c'] }, chunk.to)).toBeNull();
		expect(readSearchChunk({ ...stored, ids: '', texts: 'x' }, chunk.to)).toBeNull();
	});
});

describe('a stored chunk with its runs’ timeline keys', () => {
	const keyed = { ...chunk, keys: ['tl:0000000000002:b', 'tl:0000000000003:c'] };

	it('is read back with its ids taken from the keys', () => {
		expect(storedChunk(keyed)).not.toHaveProperty('ids');
		expect(readSearchChunk(structuredClone(storedChunk(keyed)), chunk.to)).toEqual(keyed);
	});

	it('is refused when a key is out of its range, out of order, or of another shape', () => {
		const stored = storedChunk(keyed);
		expect(readSearchChunk({ ...stored, keys: 'tl:0000000000001:a\u001etl:0000000000003:c' }, chunk.to)).toBeNull();
		expect(readSearchChunk({ ...stored, keys: 'tl:0000000000003:c\u001etl:0000000000002:b' }, chunk.to)).toBeNull();
		expect(readSearchChunk({ ...stored, keys: 'tl:2:b\u001etl:0000000000003:c' }, chunk.to)).toBeNull();
	});
});
