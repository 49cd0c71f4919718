/**
 * Where each part of the exported grid picture goes: a label column and a header row, then the cells
 * (pages stacked under each other), each cell scaled so the picture stays within the browser's canvas
 * limit (16,384 px a side). Pure: the worker draws what this says.
 */
export const MAX_CANVAS_SIDE = 16_384;
const CELL_MAX = 256;
const LABEL_W = 160;
const HEADER_H = 40;
const GAP = 4;

export interface PictureLayout {
	width: number;
	height: number;
	cell: number;
	/** Top-left of the cell at a column and a (page-stacked) row. */
	at(column: number, row: number): { x: number; y: number };
	labelWidth: number;
	headerHeight: number;
}

export function pictureLayout(columns: number, rows: number): PictureLayout {
	const fitW = Math.floor((MAX_CANVAS_SIDE - LABEL_W) / columns) - GAP;
	const fitH = Math.floor((MAX_CANVAS_SIDE - HEADER_H) / rows) - GAP;
	const cell = Math.max(8, Math.min(CELL_MAX, fitW, fitH));
	return {
		width: LABEL_W + columns * (cell + GAP),
		height: HEADER_H + rows * (cell + GAP),
		cell,
		at: (column, row) => ({ x: LABEL_W + column * (cell + GAP), y: HEADER_H + row * (cell + GAP) }),
		labelWidth: LABEL_W,
		headerHeight: HEADER_H
	};
}
