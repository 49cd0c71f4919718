import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bridge, countObjectUrls } from '../../core/state/testing/fake-bridge';
import type { SweepRecord } from '../protocol/sweep';
import { finishedSweep } from '../rules/testing/finished-sweep';
import { SweepPageStore } from './sweep-page.svelte';

vi.mock('$lib/core/state/worker-bridge.svelte', () => import('../../core/state/testing/fake-bridge'));

const record = finishedSweep();

describe("the sweep grid page's store", () => {
	let urls: ReturnType<typeof countObjectUrls>;
	beforeEach(() => {
		bridge.reset();
		urls = countObjectUrls(vi);
		bridge.answer('getSweep', () => record);
	});
	afterEach(() => vi.restoreAllMocks());

	it('saves the output shown with the sweep, and a later event of the same sweep keeps it', async () => {
		let saved: SweepRecord = record;
		bridge.answer('showSweepOutput', ({ source }) => (saved = source === null ? record : { ...record, shownSource: source }));
		const store = new SweepPageStore();
		await store.open('s1');
		expect(store.shownSource).toBeNull();
		await store.show('7');
		expect(bridge.callsOf('showSweepOutput')).toEqual([{ id: 's1', source: '7' }]);
		expect(store.shownSource).toBe('7');
		bridge.emit({ type: 'sweep', sweep: { ...saved, lastProblem: 'late' } });
		expect(store.shownSource).toBe('7');
		await store.show(null);
		expect(store.shownSource).toBeNull();
		store.dispose();
	});

	it("reads each cell's picture once, through the sweep, and revokes them when the page goes", async () => {
		bridge.answer('sweepCellPicture', ({ cell }) => (cell === 0 ? { picture: new Blob(['x']), from: 'thumbnail' } : null));
		const store = new SweepPageStore();
		await store.open('s1');
		const [first, again] = await Promise.all([store.cellPicture(record.cells[0]!, 0), store.cellPicture(record.cells[0]!, 0)]);
		expect(first).toEqual(again);
		expect(bridge.callsOf('sweepCellPicture')).toEqual([{ id: 's1', cell: 0, output: 0 }]);
		expect((await store.cellPicture(record.cells[1]!, 0)).ok, 'a cell with nothing to show says so').toBe(false);
		expect(urls.live.size).toBe(1);
		store.dispose();
		await new Promise((resolve) => setTimeout(resolve, 0)); // each read's revoke waits on its answer
		expect(urls.live.size).toBe(0);
	});

	it("gives a video cell's poster, its words when it has none, and its video once on demand, revoked when the page goes", async () => {
		bridge.answer('sweepCellPicture', ({ cell }) =>
			cell === 0 ? { picture: new Blob(['poster']), from: 'poster' } : { from: 'no-poster', problem: 'Its codec is not read here.' }
		);
		bridge.answer('sweepCellVideo', ({ cell }) => (cell === 0 ? new Blob(['video']) : null));
		const store = new SweepPageStore();
		await store.open('s1');
		const poster = await store.cellPicture(record.cells[0]!, 0);
		expect(poster.ok && poster.value.from).toBe('poster');
		expect(await store.cellPicture(record.cells[1]!, 0)).toEqual({
			ok: true,
			value: { from: 'no-poster', problem: 'Its codec is not read here.' }
		});
		const [video, again] = await Promise.all([store.cellVideo(record.cells[0]!, 0), store.cellVideo(record.cells[0]!, 0)]);
		expect(video).toEqual(again);
		expect(bridge.callsOf('sweepCellVideo')).toEqual([{ id: 's1', cell: 0, output: 0 }]);
		expect((await store.cellVideo(record.cells[1]!, 0)).ok, 'a video gone from the device and its server says so').toBe(false);
		expect(urls.live.size, 'the poster and the video').toBe(2);
		store.dispose();
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(urls.live.size).toBe(0);
	});
});
