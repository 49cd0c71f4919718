import { describe, expect, it, vi } from 'vitest';
import { MemoryStore } from '../../core/worker/kv-store';
import type { TimelineEntry } from '../../core/protocol/run-kernel';
import { storedEntry } from '../../core/rules/timeline-record';
import { parseQuery } from '../rules/search-query';
import { SEARCH_FIELDS } from '../rules/search-doc';
import { SEAL_AGE_MS, SearchIndex } from './search-index';

const DAY = 86_400_000;
/** "Now" for every index here: run i was made i minutes after the epoch, all of them long ago. */
const NOW = 400 * DAY;

const doc = (prompt: string, profile = 'p') => `\n${SEARCH_FIELDS.prompt}${prompt}\n${SEARCH_FIELDS.profile}${profile}`;
const at = (i: number) => i * 60_000;
const key = (i: number, id = `r${i}`) => `tl:${String(at(i)).padStart(13, '0')}:${id}`;
const entry = (i: number, id = `r${i}`) =>
	({ id, kind: 'workflow', profileId: 'p', status: 'succeeded', title: id, createdAt: at(i) }) as TimelineEntry;

async function storeOf(count: number, prompt: (i: number) => string): Promise<MemoryStore> {
	const kv = new MemoryStore();
	await kv.setMany(Array.from({ length: count }, (_, i) => [key(i), storedEntry(entry(i), doc(prompt(i)))]));
	return kv;
}

const indexOn = (kv: MemoryStore, now = NOW) => new SearchIndex(kv, 60_000, () => now, 0);

const ids = async (index: SearchIndex, query: string, alternatives?: Map<number, string[]>) =>
	(await index.search(parseQuery(query), alternatives)).map((h) => h.id);

/** The reads of timeline entries among a spy's `between` calls (the chunks are read in ranges too). */
const entryReads = (spy: { mock: { calls: Array<[string, string, number?]> } }) =>
	spy.mock.calls.filter(([after]) => after.startsWith('tl:'));

describe('the search index', () => {
	it('finds every run holding all the words, newest first, across many chunks', async () => {
		const index = indexOn(await storeOf(1000, (i) => (i % 100 === 7 ? `red boat number ${i}` : `blue kite ${i}`)));
		expect(await ids(index, 'boat red')).toEqual(['r907', 'r807', 'r707', 'r607', 'r507', 'r407', 'r307', 'r207', 'r107', 'r7']);
		expect(await ids(index, 'number 507')).toEqual(['r507']);
		// One hit per run, however often the word is in it.
		expect((await ids(index, 'kite')).length).toBe(990);
		expect(await ids(index, 'boat kite')).toEqual([]);
	});

	it('finds the words of a field on its lines only, whichever term leads', async () => {
		const kv = new MemoryStore();
		await kv.set(key(1), storedEntry(entry(1), `${doc('a red boat')}\n${SEARCH_FIELDS.negative}blurry, watermark`));
		await kv.set(key(2), storedEntry(entry(2), `${doc('blurry boat at dusk')}\n${SEARCH_FIELDS.negative}text`));
		const index = indexOn(kv);
		expect(await ids(index, 'negative:blurry')).toEqual(['r1']);
		expect(await ids(index, 'negative:blurry boat')).toEqual(['r1']);
		expect(await ids(index, 'prompt:blurry')).toEqual(['r2']);
		expect(await ids(index, 'blurry')).toEqual(['r2', 'r1']);
		expect(await ids(index, 'negative:water prompt:red')).toEqual(['r1']);
		expect(await ids(index, 'negative:boat')).toEqual([]);
		// Short ones are looked for line by line.
		expect(await ids(index, 'negative:wat')).toEqual(['r1']);
		expect(await ids(index, 'negative:ex')).toEqual(['r2']);
		expect(await ids(index, 'prompt:at')).toEqual(['r2', 'r1']);
		expect(await ids(index, 'negative:red')).toEqual([]);
	});

	it('keeps saves and deletes in step once read, in old chunks and new', async () => {
		const index = indexOn(await storeOf(600, (i) => `kite ${i}`));
		expect(await ids(index, 'lantern')).toEqual([]);
		index.saved('r3', doc('a paper lantern'));
		index.saved('new', doc('another lantern'));
		expect(await ids(index, 'lantern')).toEqual(['new', 'r3']);
		index.removed('r3');
		expect(await ids(index, 'lantern')).toEqual(['new']);
	});

	it('applies saves made while the texts were being read', async () => {
		const index = indexOn(await storeOf(10, (i) => `kite ${i}`));
		const first = index.search(parseQuery('kite'));
		index.saved('late', doc('kite late'));
		index.removed('r0');
		const hits = (await first).map((h) => h.id);
		expect(hits).toContain('late');
		expect(hits).not.toContain('r0');
	});

	it('counts a term found when an alternative (a profile of that name) matches', async () => {
		const kv = new MemoryStore();
		await kv.set(key(1), storedEntry(entry(1), doc('boat', 'studio-1')));
		await kv.set(key(2), storedEntry(entry(2), doc('boat', 'laptop')));
		expect(await ids(indexOn(kv), 'boat desk', new Map([[1, ['studio-1']]]))).toEqual(['r1']);
	});

	it('lets the texts go after a while without a search, and reads them again when asked', async () => {
		const kv = await storeOf(2, () => 'boat');
		const index = new SearchIndex(kv, 10, () => NOW, 0);
		expect(await ids(index, 'boat')).toEqual(['r1', 'r0']);
		expect(index.inMemory).toBe(true);
		await new Promise((r) => setTimeout(r, 30));
		expect(index.inMemory).toBe(false);
		expect(await ids(index, 'boat')).toEqual(['r1', 'r0']);
	});
});

describe('the chunks of texts a search writes for the next reload', () => {
	it('hold the runs a day old, a hundred to a chunk, so a reload reads them and the last day only', async () => {
		// 450 runs, the newest 150 made within the last day.
		const kv = await storeOf(450, (i) => (i % 50 === 0 ? `red boat ${i}` : `kite ${i}`));
		const now = at(300) + SEAL_AGE_MS;
		const first = indexOn(kv, now);
		const before = await ids(first, 'boat');
		await first.sealing;
		expect(await kv.keys('sc:')).toEqual([key(99), key(199), key(299)].map((k) => k.replace('tl:', 'sc:')));
		// Their entries are written again without the texts (the Runs list reads every entry); the day's keep theirs.
		expect(await kv.get(key(5))).toEqual(entry(5));
		expect(await kv.get(key(351))).toEqual(storedEntry(entry(351), doc('kite 351')));

		const between = vi.spyOn(kv, 'between');
		const reloaded = indexOn(kv, now);
		expect(await ids(reloaded, 'boat')).toEqual(before);
		expect(before).toEqual(['r400', 'r350', 'r300', 'r250', 'r200', 'r150', 'r100', 'r50', 'r0']);
		// Only the entries after the last chunk were read.
		expect(entryReads(between)).toEqual([[key(299), 'tl:\uffff']]);
		const tail = between.mock.calls.findIndex(([after]) => after.startsWith('tl:'));
		expect((await between.mock.results[tail]!.value).length).toBe(150);
	});

	it('are struck out by a change to a run in them, and the reload reads that chunk from the entries', async () => {
		const kv = await storeOf(300, (i) => `kite ${i}`);
		const first = indexOn(kv);
		await ids(first, 'kite');
		await first.sealing;
		// A save of r150 writes its entry and a tombstone over its chunk, in one transaction (the timeline service does).
		expect(await first.chunksOf([key(150), key(120)])).toEqual([key(199).replace('tl:', 'sc:')]);
		expect(await first.chunksOf([key(299), key(300)])).toEqual([key(299).replace('tl:', 'sc:')]);
		// A run of the last day is in no chunk: nothing is read for it.
		const firstKey = vi.spyOn(kv, 'firstKey');
		expect(await first.chunksOf([key(5, 'new').replace(String(at(5)).padStart(13, '0'), String(NOW - 1000).padStart(13, '0'))])).toEqual(
			[]
		);
		expect(firstKey).not.toHaveBeenCalled();
		// Runs of one chunk cost one key read, whatever their number.
		await first.chunksOf([key(101), key(150), key(199), key(120)]);
		expect(firstKey).toHaveBeenCalledTimes(1);
		await kv.setMany([
			[key(150), storedEntry(entry(150), doc('a paper lantern'))],
			[key(199).replace('tl:', 'sc:'), null]
		]);

		const between = vi.spyOn(kv, 'between');
		const reloaded = indexOn(kv);
		expect(await ids(reloaded, 'lantern')).toEqual(['r150']);
		expect(entryReads(between)).toEqual([
			[key(99), key(199)],
			[key(299), 'tl:\uffff']
		]);
		// The other runs of that chunk gave their texts to it: the timeline service makes them again from the runs' records.
		const missing = await reloaded.missingTexts();
		expect(missing.length).toBe(99);
		await kv.setMany(
			missing.map(({ id }) => [key(Number(id.slice(1))), storedEntry(entry(Number(id.slice(1))), doc(`kite ${id.slice(1)}`))])
		);
		await reloaded.sealing;
		// The next load finds them, and writes the chunk again.
		const again = indexOn(kv);
		expect(await ids(again, '"kite 15"')).toEqual(['r159', 'r158', 'r157', 'r156', 'r155', 'r154', 'r153', 'r152', 'r151', 'r15']);
		await again.sealing;
		between.mockClear();
		expect(await ids(indexOn(kv), 'lantern')).toEqual(['r150']);
		expect(entryReads(between)).toEqual([[key(299), 'tl:\uffff']]);
	});

	it('keep their runs’ timeline keys, so a hit’s entry is read without reading every key', async () => {
		const kv = await storeOf(200, (i) => `kite ${i}`);
		const first = indexOn(kv);
		await ids(first, 'kite');
		expect(first.keyOf('r5')).toBe(key(5)); // read from its entry
		await first.sealing;
		const reloaded = indexOn(kv);
		await ids(reloaded, 'kite');
		expect(reloaded.keyOf('r5')).toBe(key(5)); // read from its chunk
		expect(reloaded.keyOf('nobody')).toBeUndefined();
	});

	it('are found for a save even when another tab wrote them after this one last looked', async () => {
		const kv = await storeOf(300, (i) => `kite ${i}`);
		const first = indexOn(kv);
		await ids(first, 'kite');
		await first.sealing;
		expect(await first.chunksOf([key(250)])).toEqual([key(299).replace('tl:', 'sc:')]);
		// Another tab seals (200, 250] on its own: a save of r230 here must strike that chunk out, not the old one.
		await kv.set(key(250).replace('tl:', 'sc:'), { after: key(199), to: key(250), ids: 'r1', texts: 'a' });
		expect(await first.chunksOf([key(230)])).toEqual([key(250).replace('tl:', 'sc:')]);
	});

	it('read a chunk that does not hold together as struck out, its runs reported for their texts to be made again', async () => {
		const kv = await storeOf(200, (i) => `kite ${i}`);
		const first = indexOn(kv);
		await ids(first, 'kite');
		await first.sealing;
		await kv.set(key(99).replace('tl:', 'sc:'), { after: 'tl:', to: key(99), ids: 'r1', texts: 'a\u001eb\u001ec' });
		const reloaded = indexOn(kv);
		expect((await ids(reloaded, 'kite')).length).toBe(100);
		expect((await reloaded.missingTexts()).length).toBe(100);
	});

	it('leave out a run saved while they were being made: its chunk waits for the next load', async () => {
		const kv = await storeOf(200, (i) => `kite ${i}`);
		const index = new SearchIndex(kv, 60_000, () => NOW, 20);
		await ids(index, 'kite');
		index.saved('r50', doc('kite changed'));
		await index.sealing;
		expect(await kv.keys('sc:')).toEqual([key(199).replace('tl:', 'sc:')]);
		expect(((await kv.get<{ after: string }>(key(199).replace('tl:', 'sc:'))) ?? { after: '' }).after).toBe(key(99));
	});
});

describe('texts saved by older versions', () => {
	it('are read from their own records (`sx:`), which go once the texts are in a chunk', async () => {
		const kv = new MemoryStore();
		for (let i = 0; i < 150; i++) {
			await kv.set(key(i), entry(i));
			await kv.set(key(i).replace('tl:', 'sx:'), doc(`old boat ${i}`));
		}
		const index = indexOn(kv);
		expect(await ids(index, 'boat 149')).toEqual(['r149']);
		await index.sealing;
		// The first hundred are in a chunk now, and their old records are gone.
		expect(await kv.get(key(5).replace('tl:', 'sx:'))).toBeUndefined();
		expect(await kv.get(key(5))).toEqual(entry(5));
		// The rest are not chunked yet and keep their old records, still found.
		expect(await kv.get(key(120).replace('tl:', 'sx:'))).toBe(doc('old boat 120'));
		expect(await ids(indexOn(kv), 'boat 120')).toEqual(['r120']);
		expect(await ids(indexOn(kv), 'boat 5')).toContain('r5');
		expect((await ids(indexOn(kv), 'old boat')).length).toBe(150);
	});

	it('are not looked for when only runs under way lack a text (theirs are made from their records)', async () => {
		const kv = new MemoryStore();
		await kv.set(key(1), { ...entry(1), status: 'running' });
		const entries = vi.spyOn(kv, 'entries');
		const index = indexOn(kv);
		expect(await index.missingTexts()).toEqual([{ id: 'r1', kind: 'workflow', key: key(1) }]);
		expect(entries.mock.calls.map(([prefix]) => prefix)).not.toContain('sx:');
	});

	it('are reported missing when no record holds them, once, for the timeline service to make again', async () => {
		const kv = new MemoryStore();
		await kv.set(key(1), entry(1));
		const index = indexOn(kv);
		expect(await index.missingTexts()).toEqual([{ id: 'r1', kind: 'workflow', key: key(1) }]);
		expect(await index.missingTexts()).toEqual([]);
	});
});
