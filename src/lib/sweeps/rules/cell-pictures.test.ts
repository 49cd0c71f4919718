import { describe, expect, it } from 'vitest';
import { pictureIndex, shownIndex, thumbnailIndex, type CellOutput } from './cell-pictures';

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
