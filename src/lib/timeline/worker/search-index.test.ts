import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../core/worker/kv-store';
import { parseQuery } from '../rules/search-query';
import { SEARCH_FIELDS } from '../rules/search-doc';
import { SearchIndex } from './search-index';

const doc = (prompt: string, profile = 'p') => `\n${SEARCH_FIELDS.prompt}${prompt}\n${SEARCH_FIELDS.profile}${profile}`;
const key = (i: number) => `sx:${String(i).padStart(13, '0')}:r${i}`;

async function indexOf(count: number, prompt: (i: number) => string): Promise<{ kv: MemoryStore; index: SearchIndex }> {
	const kv = new MemoryStore();
	for (let i = 0; i < count; i++) await kv.set(key(i), doc(prompt(i)));
	return { kv, index: new SearchIndex(kv) };
}

const ids = async (index: SearchIndex, query: string, alternatives?: Map<number, string[]>) =>
	(await index.search(parseQuery(query), alternatives)).map((h) => h.id);

describe('the search index', () => {
	it('finds every run holding all the words, newest first, across many chunks', async () => {
		const { index } = await indexOf(1000, (i) => (i % 100 === 7 ? `red boat number ${i}` : `blue kite ${i}`));
		expect(await ids(index, 'boat red')).toEqual(['r907', 'r807', 'r707', 'r607', 'r507', 'r407', 'r307', 'r207', 'r107', 'r7']);
		expect(await ids(index, 'number 507')).toEqual(['r507']);
		// One hit per run, however often the word is in it.
		expect((await ids(index, 'kite')).length).toBe(990);
		expect(await ids(index, 'boat kite')).toEqual([]);
	});

	it('keeps saves and deletes in step once read, in old chunks and new', async () => {
		const { index } = await indexOf(600, (i) => `kite ${i}`);
		expect(await ids(index, 'lantern')).toEqual([]);
		index.saved('r3', doc('a paper lantern'));
		index.saved('new', doc('another lantern'));
		expect(await ids(index, 'lantern')).toEqual(['new', 'r3']);
		index.removed('r3');
		expect(await ids(index, 'lantern')).toEqual(['new']);
	});

	it('applies saves made while the texts were being read', async () => {
		const { index } = await indexOf(10, (i) => `kite ${i}`);
		const first = index.search(parseQuery('kite'));
		index.saved('late', doc('kite late'));
		index.removed('r0');
		const hits = (await first).map((h) => h.id);
		expect(hits).toContain('late');
		expect(hits).not.toContain('r0');
	});

	it('counts a term found when an alternative (a profile of that name) matches', async () => {
		const kv = new MemoryStore();
		await kv.set(key(1), doc('boat', 'studio-1'));
		await kv.set(key(2), doc('boat', 'laptop'));
		const index = new SearchIndex(kv);
		expect(await ids(index, 'boat desk', new Map([[1, ['studio-1']]]))).toEqual(['r1']);
	});

	it('lets the texts go after a while without a search, and reads them again when asked', async () => {
		const kv = new MemoryStore();
		await kv.set(key(1), doc('boat'));
		const index = new SearchIndex(kv, 10);
		expect(await ids(index, 'boat')).toEqual(['r1']);
		expect(index.inMemory).toBe(true);
		await new Promise((r) => setTimeout(r, 30));
		expect(index.inMemory).toBe(false);
		expect(await ids(index, 'boat')).toEqual(['r1']);
	});
});
