import { describe, expect, it, vi } from 'vitest';
import { newWorkflowRun } from '../../workflows/rules/run-record';
import type { WorkerEvent } from '../../core/protocol/worker-api';
import type { WorkerContext } from '../../core/worker/context';
import { MemoryStore } from '../../core/worker/kv-store';
import type { StoredEntry } from '../../core/rules/timeline-record';
import { storedChunk } from '../rules/search-chunk';
import { TimelineService, TIMELINE_KEY, timelineKey } from './timeline-service';

function harness(kv = new MemoryStore()) {
	const listeners: Array<(e: WorkerEvent) => void> = [];
	const emitted: WorkerEvent[] = [];
	const topics: string[] = [];
	const ctx = {
		kv,
		onEmit: (l: (e: WorkerEvent) => void) => listeners.push(l),
		emit: (e: WorkerEvent) => {
			emitted.push(e);
			listeners.forEach((l) => l(e));
		},
		notifyTabs: (topic: string) => topics.push(topic),
		profiles: { list: async () => [{ id: 'p', name: 'Studio desk' }] }
	} as unknown as WorkerContext;
	const service = new TimelineService(ctx);
	const emit = async (e: WorkerEvent) => {
		listeners.forEach((l) => l(e));
		await new Promise((r) => setTimeout(r, 0));
	};
	return { kv, api: service.api(), emit, emitted, topics };
}

const modelRun = (id: string, status: string, createdAt: number) => ({
	schemaVersion: 1,
	kind: 'model',
	id,
	profileId: 'p',
	modelId: 'lumen/flux',
	title: 'Flux',
	status,
	createdAt
});

const run = (id: string, createdAt: number) => ({
	...newWorkflowRun({ id, profileId: 'p', title: `Run ${id}`, workflowId: null, prompt: {}, seeds: {}, partner: false, now: createdAt }),
	status: 'queued' as const
});

describe('the timeline index', () => {
	it('follows saves through the events they emit, and forgets deleted runs', async () => {
		const { kv, api, emit } = harness();
		await kv.set('run:a', run('a', 1));
		await emit({ type: 'run', run: run('a', 1) });
		await emit({ type: 'run', run: { ...run('a', 1), status: 'succeeded' } });
		expect((await api.timeline({})).map((e) => [e.id, e.status])).toEqual([['a', 'succeeded']]);
		await kv.delete('run:a');
		await emit({ type: 'run-deleted', id: 'a' });
		expect(await api.timeline({})).toEqual([]);
	});

	it('repairs itself from full records written some other way, model runs included', async () => {
		const { kv, api } = harness();
		await kv.set('run:a', run('a', 1));
		await kv.set('run:b', run('b', 3));
		await kv.set('modelrun:m', {
			schemaVersion: 1,
			kind: 'model',
			id: 'm',
			profileId: 'p',
			modelId: 'lumen/flux',
			title: 'Flux',
			status: 'succeeded',
			createdAt: 2,
			creditsUsed: 7
		});
		await kv.set(`${TIMELINE_KEY}gone`, { id: 'gone' });
		const entries = await api.timeline({});
		expect(entries.map((e) => e.id)).toEqual(['b', 'm', 'a']);
		expect(entries[1]).toMatchObject({ kind: 'model', subject: 'lumen/flux', credits: 7, href: '/runs/m' });
		expect(await kv.get(`${TIMELINE_KEY}gone`)).toBeUndefined();
		expect((await api.timeline({ limit: 2 })).map((e) => e.id)).toEqual(['b', 'm']);
	});

	it('saves a run without reading every timeline key, and a delete after it still finds the run', async () => {
		const { kv, api, emit } = harness();
		const keys = vi.spyOn(kv, 'keys');
		const done = { ...run('a', 1), status: 'succeeded' as const };
		await kv.set('run:a', done);
		await emit({ type: 'run', run: done });
		expect(keys).not.toHaveBeenCalled();
		expect(await api.deleteRuns({ ids: ['a'] })).toEqual({ deleted: ['a'], kept: [] });
		expect(await kv.keys('tl:')).toEqual([]);
	});

	it('deletes a batch of finished runs of both kinds in one write, keeping unfinished ones', async () => {
		const { kv, api, emitted, topics } = harness();
		await kv.set('run:a', { ...run('a', 1), status: 'succeeded', promptId: 'job-a' });
		await kv.set('prompt:job-a', 'a');
		await kv.set('output:a:0', 'bytes');
		await kv.set('output:ab:0', 'another run whose id starts the same');
		await kv.set('run:ab', { ...run('ab', 4), status: 'failed' });
		await kv.set('modelrun:m', modelRun('m', 'succeeded', 2));
		await kv.set('models:bytes:m:0', 'bytes');
		await kv.set('modelrun:busy', modelRun('busy', 'running', 3));
		expect((await api.timeline({})).map((e) => e.id)).toEqual(['ab', 'busy', 'm', 'a']);
		const deleteMany = vi.spyOn(kv, 'deleteMany');

		expect(await api.deleteRuns({ ids: ['a', 'm', 'busy', 'a'] })).toEqual({ deleted: ['a', 'm'], kept: ['busy'] });

		expect(deleteMany).toHaveBeenCalledTimes(1);
		expect((await kv.keys()).filter((k) => !k.startsWith(TIMELINE_KEY) && !k.startsWith('sx:'))).toEqual([
			'modelrun:busy',
			'output:ab:0',
			'run:ab'
		]);
		expect((await api.timeline({})).map((e) => e.id)).toEqual(['ab', 'busy']);
		expect(emitted).toEqual([
			{ type: 'run-deleted', id: 'a' },
			{ type: 'run-deleted', id: 'm' }
		]);
		expect(topics).toEqual(['runs-changed']);
	});

	it('reads every entry page by page, newest first, and gives them without their texts', async () => {
		const { kv, api } = harness();
		const runs = Array.from({ length: 4100 }, (_, i) => ({ ...modelRun(`m${i}`, 'succeeded', 10 + i), body: { prompt: `kite ${i}` } }));
		await kv.setMany(runs.map((r) => [`modelrun:${r.id}`, r]));
		await api.timeline({ limit: 1 }); // nothing is repaired by the first page: the entries are made on the full read
		const between = vi.spyOn(kv, 'between');
		const entries = await api.timeline({});
		expect(entries.length).toBe(4100);
		expect(entries[0]!.id).toBe('m4099');
		expect(entries.at(-1)!.id).toBe('m0');
		expect(entries.some((e) => 'searchText' in e)).toBe(false);
		expect(between).toHaveBeenCalledTimes(9); // pages of 500
		expect((await api.searchRuns({ query: 'kite 4099' })).hits.map((h) => h.id)).toEqual(['m4099']);
	});

	it('deletes nothing when the one write fails', async () => {
		const { kv, api, emitted } = harness();
		await kv.set('run:a', { ...run('a', 1), status: 'succeeded' });
		await kv.set('modelrun:m', modelRun('m', 'failed', 2));
		await api.timeline({});
		vi.spyOn(kv, 'deleteMany').mockRejectedValueOnce(new Error('The page went away'));
		await expect(api.deleteRuns({ ids: ['a', 'm'] })).rejects.toThrow('The page went away');
		expect((await api.timeline({})).map((e) => e.id)).toEqual(['m', 'a']);
		expect(emitted).toEqual([]);
	});

	it('finds runs by their search texts, written with their entries once they end, and forgets deleted ones', async () => {
		const { kv, api, emit } = harness();
		const boat = {
			...run('a', 1),
			prompt: { '6': { class_type: 'CLIPTextEncode', inputs: { text: 'a red boat' } } },
			seeds: { '3.seed': 4242 }
		};
		await kv.set('run:a', boat);
		await emit({ type: 'run', run: boat });
		await kv.set('run:b', { ...run('b', 2), status: 'succeeded' as const });
		await emit({ type: 'run', run: { ...run('b', 2), status: 'succeeded' as const } });
		// An ended run's text is in its entry's own record; a run under way has none stored (it is made
		// from its record when a search wants it); the page's entries come without texts.
		expect(await kv.keys('sx:')).toEqual([]);
		expect((await kv.get<StoredEntry>(timelineKey({ id: 'b', createdAt: 2 })))?.searchText).toContain('succeeded');
		expect((await kv.get<StoredEntry>(timelineKey({ id: 'a', createdAt: 1 })))?.searchText).toBeUndefined();
		expect((await api.timeline({})).some((e) => 'searchText' in e)).toBe(false);
		expect((await api.timeline({ limit: 1 })).some((e) => 'searchText' in e)).toBe(false);

		const found = await api.searchRuns({ query: 'RED boat' });
		expect(found.hits.map((h) => h.id)).toEqual(['a']);
		expect(found.words).toEqual(['red', 'boat']);
		expect((await api.searchRuns({ query: 'seed:4242' })).hits.map((h) => h.id)).toEqual(['a']);
		// A profile's name finds its runs, newest first.
		expect((await api.searchRuns({ query: 'studio' })).hits.map((h) => h.id)).toEqual(['b', 'a']);

		// Saved after the texts were read: kept in step, and stored now that it has ended.
		await emit({ type: 'run', run: { ...boat, status: 'succeeded' as const } });
		expect((await api.searchRuns({ query: 'red succeeded' })).hits.map((h) => h.id)).toEqual(['a']);
		expect((await kv.get<StoredEntry>(timelineKey({ id: 'a', createdAt: 1 })))?.searchText).toContain('a red boat');
		await kv.set('run:a', { ...boat, status: 'succeeded' });
		await api.deleteRuns({ ids: ['a'] });
		expect((await api.searchRuns({ query: 'boat' })).hits).toEqual([]);
		expect((await kv.keys(TIMELINE_KEY)).length).toBe(1);
	});

	it('finds runs under way after a reload, their texts made from their records, in their place in time', async () => {
		const first = harness();
		const sweep = (id: string, at: number, status: 'queued' | 'running' | 'succeeded') => ({
			...run(id, at),
			status,
			prompt: { '6': { class_type: 'CLIPTextEncode', inputs: { text: `harbour at dusk ${id}` } } }
		});
		for (const cell of [sweep('c1', 1, 'running'), sweep('c2', 2, 'succeeded'), sweep('c3', 3, 'queued')]) {
			await first.kv.set(`run:${cell.id}`, cell);
			await first.emit({ type: 'run', run: cell });
		}
		const stored = async (id: string, at: number) => (await first.kv.get<StoredEntry>(timelineKey({ id, createdAt: at })))?.searchText;
		expect([await stored('c1', 1), await stored('c3', 3)]).toEqual([undefined, undefined]);

		const reloaded = harness(first.kv);
		const getMany = vi.spyOn(first.kv, 'getMany');
		expect((await reloaded.api.searchRuns({ query: 'harbour dusk' })).hits.map((h) => h.id)).toEqual(['c3', 'c2', 'c1']);
		// Both records in one read; no entry is written for them.
		expect(getMany.mock.calls.find(([keys]) => keys.includes('run:c1'))?.[0]).toEqual(['run:c1', 'run:c3']);
		expect(await stored('c1', 1)).toBeUndefined();
	});

	it('answers a search asked while the list reads every entry first, with the rows of its newest hits', async () => {
		const { kv, api, emit } = harness();
		for (const [id, at] of [
			['a', 1],
			['b', 2],
			['c', 3]
		] as const) {
			const boat = { ...run(id, at), prompt: { '6': { class_type: 'CLIPTextEncode', inputs: { text: `boat ${id}` } } } };
			await kv.set(`run:${id}`, boat);
			await emit({ type: 'run', run: boat });
		}
		await api.prepareSearch({});
		const done: string[] = [];
		const search = api.searchRuns({ query: 'boat', entries: 2 }).then((answer) => (done.push('search'), answer));
		const list = api.timeline({}).then(() => done.push('list'));
		const answer = await search;
		await list;
		expect(done).toEqual(['search', 'list']);
		expect(answer.hits.map((h) => h.id)).toEqual(['c', 'b', 'a']);
		// The two newest hits' rows, as the list would give them (without their texts).
		expect(answer.entries.map((e) => e.id)).toEqual(['c', 'b']);
		expect(answer.entries.some((e) => 'searchText' in e)).toBe(false);
		expect((await api.searchRuns({ query: 'boat' })).entries).toEqual([]);
	});

	it('gives runs saved before search existed their texts at the first search', async () => {
		const { kv, api } = harness();
		await kv.set('modelrun:m', { ...modelRun('m', 'succeeded', 2), body: { prompt: 'an old lighthouse' } });
		await api.timeline({});
		// As an older version wrote it: no text in the entry, none beside it.
		const key = timelineKey({ id: 'm', createdAt: 2 });
		const { searchText: _, ...older } = (await kv.get<StoredEntry>(key))!;
		await kv.set(key, older);
		expect((await api.searchRuns({ query: 'lighthouse' })).hits.map((h) => h.id)).toEqual(['m']);
		expect((await kv.get<StoredEntry>(key))?.searchText).toContain('an old lighthouse');
	});

	it('strikes out the stored chunk of texts holding a run when the run is saved again or deleted', async () => {
		const { kv, api, emit } = harness();
		const old = { ...run('a', 1), status: 'succeeded' as const };
		await kv.set('run:a', old);
		await emit({ type: 'run', run: old });
		await emit({ type: 'run', run: { ...run('b', 5), status: 'succeeded' as const } });
		const a = timelineKey({ id: 'a', createdAt: 1 });
		const chunkKey = a.replace(TIMELINE_KEY, 'sc:');
		await kv.set(chunkKey, storedChunk({ after: TIMELINE_KEY, to: a, ids: ['a'], texts: '\n\u0001old text' }));
		const setMany = vi.spyOn(kv, 'setMany');

		await emit({ type: 'run', run: { ...old, title: 'Renamed' } });
		expect(setMany).toHaveBeenCalledTimes(1);
		expect(setMany.mock.calls[0]![0].map(([k, v]) => [k, v === null ? null : 'entry'])).toEqual([
			[a, 'entry'],
			[chunkKey, null]
		]);
		// A run past every chunk writes its entry alone.
		await emit({ type: 'run', run: { ...run('b', 5), status: 'failed' as const } });
		expect(setMany.mock.calls[1]![0].map(([k]) => k)).toEqual([timelineKey({ id: 'b', createdAt: 5 })]);

		expect((await api.searchRuns({ query: 'renamed' })).hits.map((h) => h.id)).toEqual(['a']);
		expect(await api.deleteRuns({ ids: ['a'] })).toEqual({ deleted: ['a'], kept: [] });
		expect(await kv.get(chunkKey)).toBeUndefined();
	});
});
