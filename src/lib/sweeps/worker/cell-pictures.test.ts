import { describe, expect, it } from 'vitest';
import { appError, fail, ok } from '../../core/protocol/errors';
import type { RunOutput, WorkflowRun } from '../../core/protocol/workflow-run';
import type { ModelRun } from '../../core/protocol/model-run';
import { MemoryStore } from '../../core/worker/kv-store';
import type { CellPicture, SweepRecord } from '../protocol/sweep';
import { finishedSweep } from '../rules/testing/finished-sweep';
import { CellPictures } from './cell-pictures';
import type { SweepModelPort } from './model-port';
import type { SweepRunPort } from './run-port';

const image = (nodeId: string): RunOutput => ({ nodeId, kind: 'image', ref: { filename: `${nodeId}.png`, subfolder: '', type: 'output' } });
const video = (nodeId: string): RunOutput => ({
	nodeId,
	kind: 'video',
	ref: { filename: `${nodeId}.webm`, subfolder: '', type: 'output' }
});

/** What a cell shows, as words: where it came from, and its bytes as text (or why a video has no poster). */
async function shownAs(picture: CellPicture | null): Promise<[string, string] | null> {
	if (!picture) return null;
	return picture.from === 'no-poster' ? [picture.from, picture.problem] : [picture.from, await picture.picture.text()];
}

/** Two finished cells of a workflow with a saved image (node 9) and a scaled preview (node 7). */
const sweep = finishedSweep;

/** Outputs in the cache (`cache`) and on the server (`server`, until it forgets), and a thumbnail maker that says what it was made of. */
function pictures(outputs: RunOutput[] = [image('9'), image('7')]) {
	const kv = new MemoryStore();
	const cache = new Map<string, Blob>();
	const server = new Map<string, Blob>();
	const fetched: string[] = [];
	const runs = new Map<string, WorkflowRun>(['r0', 'r1'].map((id) => [id, { id, outputs } as unknown as WorkflowRun]));
	const port = {
		getRun: async (id: string) => runs.get(id) ?? null,
		cachedOutput: async (runId: string, index: number) => cache.get(`${runId}:${index}`) ?? null,
		output: async (runId: string, index: number) => {
			const key = `${runId}:${index}`;
			fetched.push(key);
			const blob = cache.get(key) ?? server.get(key);
			if (!blob) return fail({ kind: 'not-found' as const, message: 'gone' });
			cache.set(key, blob);
			return ok(blob);
		}
	} as unknown as SweepRunPort;
	const made = new CellPictures(
		kv,
		port,
		null,
		async (blob) => ok(new Blob([`thumb of ${await blob.text()}`])),
		async (blob) => {
			const text = await blob.text();
			if (text.includes('slow')) return fail(appError('timeout', 'The video took too long to decode for a poster.'));
			return text.includes('undecodable') ? fail(appError('unknown', 'Its codec is not read here.')) : ok(new Blob([`poster of ${text}`]));
		}
	);
	const full = (key: string) => new Blob([`full ${key}`], { type: 'image/png' });
	return { kv, cache, server, fetched, made, full };
}

describe("a sweep's cell pictures", () => {
	it('keeps a thumbnail of the shown output when a cell ends, fetching it as a finished run’s outputs are', async () => {
		const p = pictures();
		p.server.set('r0:0', p.full('r0:0'));
		await p.made.keep(sweep(), sweep().cells[0]!, true);
		const kept = await p.made.thumbnails.get('s1', 0);
		expect([kept?.runId, kept?.output, kept && 'picture' in kept ? await kept.picture.text() : null]).toEqual([
			'r0',
			0,
			'thumb of full r0:0'
		]);
		expect(p.cache.has('r0:0')).toBe(true);
	});

	it.each<[string, string | undefined, number]>([
		['nothing chosen: the first output', undefined, 0],
		['the chosen node: its output', '7', 1]
	])('keeps the thumbnail of the output shown: %s', async (_name, chosen, output) => {
		const p = pictures();
		p.cache.set('r1:0', p.full('r1:0'));
		p.cache.set('r1:1', p.full('r1:1'));
		await p.made.keep(sweep(chosen), sweep(chosen).cells[1]!, false);
		expect((await p.made.thumbnails.get('s1', 1))?.output).toBe(output);
	});

	it('without fetching, keeps no thumbnail of an output this device no longer has', async () => {
		const p = pictures();
		p.server.set('r0:1', p.full('r0:1'));
		await p.made.keep(sweep('7'), sweep('7').cells[0]!, false);
		expect(await p.made.thumbnails.get('s1', 0)).toBeNull();
		expect(p.fetched).toEqual([]);
	});

	it('shows the cached output, then the thumbnail once the outputs are freed and the server forgot them', async () => {
		const p = pictures();
		p.server.set('r0:0', p.full('r0:0'));
		await p.made.keep(sweep(), sweep().cells[0]!, true);
		expect(await shownAs(await p.made.cellPicture(sweep(), 0, 0))).toEqual(['output', 'full r0:0']);

		p.cache.clear();
		p.server.clear();
		expect(await shownAs(await p.made.cellPicture(sweep(), 0, 0))).toEqual(['thumbnail', 'thumb of full r0:0']);
		expect(p.fetched, 'a thumbnail at hand is shown without asking the server').toEqual(['r0:0']);
		// Another output of the run has no thumbnail, and its server no longer has it.
		expect(await p.made.cellPicture(sweep(), 0, 1)).toBeNull();
	});

	it('fetches an output it has no thumbnail of, and keeps one of it when it is the output shown', async () => {
		const p = pictures();
		p.server.set('r1:1', p.full('r1:1'));
		const shown = await p.made.cellPicture(sweep('7'), 1, 1);
		expect(shown?.from).toBe('output');
		await p.made.keep(sweep('7'), sweep('7').cells[1]!, false); // waits for the one the read asked for
		expect((await p.made.thumbnails.get('s1', 1))?.output).toBe(1);
	});

	it('draws the exported picture from the thumbnails, and from the outputs where there is none', async () => {
		const p = pictures();
		p.server.set('r0:0', p.full('r0:0'));
		await p.made.keep(sweep(), sweep().cells[0]!, true);
		p.cache.set('r1:0', p.full('r1:0'));
		expect(await (await p.made.pictureImage(sweep(), sweep().cells[0]!))?.text()).toBe('thumb of full r0:0');
		expect(await (await p.made.pictureImage(sweep(), sweep().cells[1]!))?.text()).toBe('full r1:0');
		// The picture follows the choice: node 7 of cell 0 is fetched, its thumbnail is of node 9.
		p.server.set('r0:1', p.full('r0:1'));
		expect(await (await p.made.pictureImage(sweep('7'), sweep('7').cells[0]!))?.text()).toBe('full r0:1');
	});

	it('says what a sweep holds and frees its thumbnails as one', async () => {
		const p = pictures();
		p.cache.set('r0:0', p.full('r0:0'));
		p.cache.set('r1:0', p.full('r1:0'));
		for (const cell of sweep().cells) await p.made.keep(sweep(), cell, false);
		const bytes = 2 * 'thumb of full r0:0'.length;
		expect(await p.made.holding(sweep())).toEqual({
			id: 's1',
			title: 'T',
			cells: 2,
			runIds: ['r0', 'r1'],
			thumbnails: { count: 2, bytes },
			posters: { count: 0, bytes: 0 }
		});
		expect(await p.made.thumbnails.remove('s1')).toEqual({ count: 2, bytes });
		expect(await p.kv.keys('sweepthumb:')).toEqual([]);
	});

	it('keeps a model cell’s thumbnail from its saved result bytes, and never fetches one', async () => {
		const kv = new MemoryStore();
		const run = {
			id: 'm0',
			result: {
				assets: [
					{ path: 'images[0]', kind: 'image', source: 'url', url: 'https://x/0.png', bytesKey: 'models:bytes:m0:0', mime: 'image/png' }
				]
			}
		} as unknown as ModelRun;
		const saved = new Map([['models:bytes:m0:0', new TextEncoder().encode('png')]]);
		const models = { getRun: async () => run, bytes: async (key: string) => saved.get(key) ?? null } as unknown as SweepModelPort;
		const made = new CellPictures(kv, {} as SweepRunPort, models, async (blob) => ok(new Blob([`thumb of ${await blob.text()}`])));
		const modelSweep: SweepRecord = { ...sweep(), model: { modelId: 'm', bodies: {} }, cells: [{ ...sweep().cells[0]!, runId: 'm0' }] };
		await made.keep(modelSweep, modelSweep.cells[0]!, true);
		saved.clear();
		expect(await shownAs(await made.cellPicture(modelSweep, 0, 0))).toEqual(['thumbnail', 'thumb of png']);
	});

	describe('a video cell', () => {
		it('keeps a poster of its video when it ends, and shows it once the video is gone from the cache and the server', async () => {
			const p = pictures([video('12')]);
			p.server.set('r0:0', p.full('r0:0'));
			await p.made.keep(sweep(), sweep().cells[0]!, true);
			expect(await shownAs(await p.made.cellPicture(sweep(), 0, 0)), 'the video itself while it is cached').toEqual([
				'output',
				'full r0:0'
			]);
			p.cache.clear();
			p.server.clear();
			expect(await shownAs(await p.made.cellPicture(sweep(), 0, 0))).toEqual(['poster', 'poster of full r0:0']);
			expect(p.fetched, 'a poster at hand is shown without asking the server').toEqual(['r0:0']);
		});

		it('gives the video itself on demand: the cached one, else the server’s', async () => {
			const p = pictures([video('12')]);
			p.server.set('r0:0', p.full('r0:0'));
			expect(await (await p.made.cellVideo(sweep(), 0, 0))?.text()).toBe('full r0:0');
			p.server.clear();
			expect(await (await p.made.cellVideo(sweep(), 0, 0))?.text(), 'fetched once, then from the cache').toBe('full r0:0');
			p.cache.clear();
			expect(await p.made.cellVideo(sweep(), 0, 0)).toBeNull();
		});

		it('keeps why a video has no poster, says so in words, and never fetches the video again for it', async () => {
			const p = pictures([video('12')]);
			p.server.set('r0:0', new Blob(['undecodable bytes']));
			await p.made.keep(sweep(), sweep().cells[0]!, true);
			p.cache.clear();
			expect(await shownAs(await p.made.cellPicture(sweep(), 0, 0))).toEqual(['no-poster', 'Its codec is not read here.']);
			expect(p.fetched).toEqual(['r0:0']);
			expect((await p.made.holding(sweep())).posters, 'a note is no poster').toEqual({ count: 0, bytes: 0 });
		});

		it('is drawn in the exported picture from its poster, and from the run’s first image while it has none', async () => {
			const p = pictures([video('12'), image('9')]);
			p.cache.set('r0:0', p.full('r0:0'));
			p.cache.set('r0:1', p.full('r0:1'));
			expect(await (await p.made.pictureImage(sweep(), sweep().cells[0]!))?.text()).toBe('full r0:1');
			await p.made.keep(sweep(), sweep().cells[0]!, false);
			expect(await (await p.made.pictureImage(sweep(), sweep().cells[0]!))?.text()).toBe('poster of full r0:0');
		});

		it('keeps no note when the decoder only ran out of time: the next look tries again', async () => {
			const p = pictures([video('12')]);
			p.cache.set('r0:0', new Blob(['slow video']));
			await p.made.keep(sweep(), sweep().cells[0]!, false);
			expect(await p.made.thumbnails.get('s1', 0)).toBeNull();
		});

		it('counts posters apart from thumbnails, and frees both as one', async () => {
			const p = pictures([video('12'), image('9')]);
			for (const key of ['r0:0', 'r0:1', 'r1:0', 'r1:1']) p.cache.set(key, p.full(key));
			for (const cell of sweep().cells) await p.made.keep(sweep(), cell, false);
			await p.made.keep(sweep('9'), sweep('9').cells[1]!, false);
			const held = await p.made.holding(sweep());
			expect([held.posters, held.thumbnails]).toEqual([
				{ count: 1, bytes: 'poster of full r0:0'.length },
				{ count: 1, bytes: 'thumb of full r1:1'.length }
			]);
			expect(await p.made.thumbnails.remove('s1')).toEqual({ count: 2, bytes: 'poster of full r0:0'.length + 'thumb of full r1:1'.length });
		});
	});
});
