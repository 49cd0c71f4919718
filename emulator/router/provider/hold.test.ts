import { describe, expect, it } from 'vitest';
import { ProviderHold, type HoldEnd, type HoldSetting } from './hold';

function holdWith(setting: HoldSetting | null): { hold: ProviderHold; set: (s: HoldSetting | null) => void } {
	let current = setting;
	const hold = new ProviderHold(() => current);
	return { hold, set: (s) => ((current = s), hold.settingChanged()) };
}

/** Whether a promise has settled by now, and how. */
async function settled(p: Promise<HoldEnd>): Promise<HoldEnd | 'waiting'> {
	return Promise.race([p, new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), 0))]);
}

describe('provider hold', () => {
	it('lets every run through while unset', async () => {
		const { hold } = holdWith(null);
		expect(await settled(hold.wait('a', 'lumen/flux-1'))).toBe('released');
		expect(hold.count).toBe(0);
	});

	it('holds every run, or only the runs of one model, until released', async () => {
		const { hold, set } = holdWith({ model: 'lumen/flux-1' });
		const other = hold.wait('a', 'quill/quill-3');
		const held = hold.wait('b', 'lumen/flux-1');
		expect(await settled(other)).toBe('released');
		expect(await settled(held)).toBe('waiting');
		expect(hold.runs()).toEqual([{ id: 'b', model: 'lumen/flux-1', heldMs: expect.any(Number) }]);
		set({ model: null });
		const any = hold.wait('c', 'quill/quill-3');
		expect(hold.count).toBe(2);
		expect(hold.release()).toBe(2);
		expect([await settled(held), await settled(any)]).toEqual(['released', 'released']);
		expect(hold.count).toBe(0);
	});

	it('releases oldest first, by model and count, and one run by its id', async () => {
		const { hold } = holdWith({ model: null });
		const runs = ['r1', 'r2', 'r3', 'r4'].map((id, i) => hold.wait(id, i === 1 ? 'quill/quill-3' : 'lumen/flux-1'));
		expect(hold.release({ model: 'lumen/flux-1', count: 1 })).toBe(1);
		expect(hold.runs().map((r) => r.id)).toEqual(['r2', 'r3', 'r4']);
		expect(hold.releaseRun('r4')).toBe(true);
		expect(hold.releaseRun('r4')).toBe(false);
		expect(hold.release({ count: 1 })).toBe(1);
		expect(hold.runs().map((r) => r.id)).toEqual(['r3']);
		expect(await Promise.all(runs.slice(0, 2).concat(runs[3]!))).toEqual(['released', 'released', 'released']);
		expect(await settled(runs[2]!)).toBe('waiting');
	});

	it('lets go the runs a changed setting no longer covers, and ends every run on reset', async () => {
		const { hold, set } = holdWith({ model: null });
		const flux = hold.wait('a', 'lumen/flux-1');
		const quill = hold.wait('b', 'quill/quill-3');
		set({ model: 'quill/quill-3' });
		expect([await settled(flux), await settled(quill)]).toEqual(['released', 'waiting']);
		hold.reset();
		expect(await settled(quill)).toBe('reset');
		expect(hold.count).toBe(0);
	});
});
