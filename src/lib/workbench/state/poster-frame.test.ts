import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, appError } from '$lib/core/protocol/errors';
import { PosterCache } from './poster-frame';

afterEach(() => vi.restoreAllMocks());

describe('a page’s poster cache', () => {
	it('makes one poster per video address and revokes every one it made when disposed', async () => {
		const created: string[] = [];
		vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:poster-${created.push('x')}`);
		const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
		const grabbed: string[] = [];
		const cache = new PosterCache(async (src) => (grabbed.push(src), ok(new Blob(['jpeg']))));

		const first = await cache.posterUrl('blob:video-1');
		expect(await cache.posterUrl('blob:video-1')).toEqual(first);
		const second = await cache.posterUrl('blob:video-2');
		expect(grabbed).toEqual(['blob:video-1', 'blob:video-2']);
		expect([first, second]).toEqual([ok('blob:poster-1'), ok('blob:poster-2')]);

		cache.dispose();
		await vi.waitFor(() => expect(revoke.mock.calls.map(([url]) => url)).toEqual(['blob:poster-1', 'blob:poster-2']));
	});

	it('makes nothing once disposed, and keeps a failure without an object URL', async () => {
		const create = vi.spyOn(URL, 'createObjectURL');
		const cache = new PosterCache(async () => fail(appError('bad-response', 'no picture')));
		expect(await cache.posterUrl('blob:video-1')).toMatchObject({ ok: false, error: { kind: 'bad-response' } });
		cache.dispose();
		expect(await cache.posterUrl('blob:video-2')).toMatchObject({ ok: false, error: { kind: 'aborted' } });
		expect(create).not.toHaveBeenCalled();
	});

	it('does not hand out a poster finished after the page went away', async () => {
		const create = vi.spyOn(URL, 'createObjectURL');
		let finish: (blob: Blob) => void = () => {};
		const cache = new PosterCache(() => new Promise((resolve) => (finish = (blob) => resolve(ok(blob)))));
		const pending = cache.posterUrl('blob:video-1');
		await vi.waitFor(() => expect(finish).not.toBe(undefined));
		await new Promise((resolve) => setTimeout(resolve, 0));
		cache.dispose();
		finish(new Blob(['jpeg']));
		expect(await pending).toMatchObject({ ok: false, error: { kind: 'aborted' } });
		expect(create).not.toHaveBeenCalled();
	});
});
