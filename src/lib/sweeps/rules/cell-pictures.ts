/**
 * Which output of a cell's run its grid cell, its thumbnail and the exported picture use, from the
 * output the person chose for the grid (`SweepRecord.shownSource`). The grid shows the first output
 * of the chosen source, else the run's first that is not a plain file (`core/rules/cell-output.ts`);
 * a thumbnail is kept of that output when it is an image and a poster (a still of its first frame)
 * when it is a video, so the grid still shows the cell once the output is gone (a sound or a text
 * needs none: the run record keeps texts, and the grid shows a stand-in for sounds); the picture
 * draws it when it is an image (a video's poster when it has one), else the run's first image.
 */
import type { MediaKind } from '../../core/protocol/model-run';
import { shownOutput } from '../../core/rules/cell-output';

export interface CellOutput {
	/** A workflow output's node id, a model asset's path. */
	source: string;
	kind: MediaKind;
	/** False for a model asset with neither saved bytes nor a link: the grid cannot show it. */
	showable?: boolean;
}

/** The index (into `outputs`) of the output the grid cell shows; -1 when there is none. */
export function shownIndex(outputs: readonly CellOutput[], shownSource: string | null): number {
	const showable = outputs.flatMap((o, index) => (o.kind === 'file' || o.showable === false ? [] : [{ source: o.source, output: index }]));
	const at = shownOutput(showable, shownSource);
	return at < 0 ? -1 : showable[at]!.output;
}

/** The output a cell's thumbnail is made of: the shown one when it is an image, else none (-1). */
export function thumbnailIndex(outputs: readonly CellOutput[], shownSource: string | null): number {
	const index = shownIndex(outputs, shownSource);
	return index >= 0 && outputs[index]!.kind === 'image' ? index : -1;
}

/** What a cell keeps of its shown output: a thumbnail of an image, a poster of a video; null for anything else. */
export function keptPicture(
	outputs: readonly CellOutput[],
	shownSource: string | null
): { output: number; as: 'thumbnail' | 'poster' } | null {
	const index = shownIndex(outputs, shownSource);
	const kind = index >= 0 ? outputs[index]!.kind : null;
	return kind === 'image' ? { output: index, as: 'thumbnail' } : kind === 'video' ? { output: index, as: 'poster' } : null;
}

/** The image the exported grid picture draws for a cell: the shown output when it is an image, else the run's first image. */
export function pictureIndex(outputs: readonly CellOutput[], shownSource: string | null): number {
	const shown = thumbnailIndex(outputs, shownSource);
	return shown >= 0 ? shown : outputs.findIndex((o) => o.kind === 'image');
}
