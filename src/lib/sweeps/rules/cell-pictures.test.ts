import { describe, expect, it } from 'vitest';
import { keptPicture, pictureIndex, shownIndex, thumbnailIndex, type CellOutput } from './cell-pictures';

/** A workflow with a saved image (node 9), a scaled preview (node 7), a video (node 12) and a plain file (node 4). */
const outputs: CellOutput[] = [
	{ source: '4', kind: 'file' },
	{ source: '9', kind: 'image' },
	{ source: '9', kind: 'image' },
	{ source: '7', kind: 'image' },
	{ source: '12', kind: 'video' }
];

describe("the output a sweep's cell shows, keeps a thumbnail of, and draws in the picture", () => {
	it.each<[string, string | null, number, number, number]>([
		['nothing chosen: the first that is not a plain file', null, 1, 1, 1],
		['the chosen node: its first output', '7', 3, 3, 3],
		['a chosen node this run lacks: the first', '15', 1, 1, 1],
		['a chosen video: shown, no thumbnail, the picture draws the first image', '12', 4, -1, 1],
		['a plain file is never shown', '4', 1, 1, 1]
	])('%s', (_name, chosen, shown, thumbnail, picture) => {
		expect([shownIndex(outputs, chosen), thumbnailIndex(outputs, chosen), pictureIndex(outputs, chosen)]).toEqual([
			shown,
			thumbnail,
			picture
		]);
	});

	it.each<[string, CellOutput[], number, number, number]>([
		['a run with no output', [], -1, -1, -1],
		['a sound only: shown, nothing to draw', [{ source: 'a', kind: 'audio' }], 0, -1, -1],
		[
			'a model asset the grid cannot show is passed over',
			[
				{ source: 'images[0]', kind: 'image', showable: false },
				{ source: 'images[1]', kind: 'image' }
			],
			1,
			1,
			1
		]
	])('%s', (_name, list, shown, thumbnail, picture) => {
		expect([shownIndex(list, null), thumbnailIndex(list, null), pictureIndex(list, null)]).toEqual([shown, thumbnail, picture]);
	});
});

describe('what a cell keeps of its shown output, so the grid still shows it once the output is gone', () => {
	it.each<[string, CellOutput[], string | null, ReturnType<typeof keptPicture>]>([
		['an image: a thumbnail of it', outputs, null, { output: 1, as: 'thumbnail' }],
		['a chosen video: a poster of it', outputs, '12', { output: 4, as: 'poster' }],
		[
			'a video shown first (a video workflow): a poster',
			[
				{ source: '7', kind: 'video' },
				{ source: '9', kind: 'image' }
			],
			null,
			{ output: 0, as: 'poster' }
		],
		['a sound: nothing (the grid shows a stand-in)', [{ source: 'a', kind: 'audio' }], null, null],
		['a plain file only: nothing', [{ source: '4', kind: 'file' }], null, null],
		[
			'a model video the grid cannot show: passed over for the next',
			[
				{ source: 'video', kind: 'video', showable: false },
				{ source: 'thumbnail', kind: 'image' }
			],
			null,
			{ output: 1, as: 'thumbnail' }
		],
		['no output at all: nothing', [], null, null]
	])('%s', (_name, list, chosen, kept) => {
		expect(keptPicture(list, chosen)).toEqual(kept);
	});
});
