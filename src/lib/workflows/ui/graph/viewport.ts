/**
 * Pan and zoom of the graph as plain numbers: a point (x, y) of the workflow is drawn at
 * (x * k + tx, y * k + ty) on screen. Pure, so the gestures' arithmetic is tested without a browser.
 */

export interface View {
	tx: number;
	ty: number;
	k: number;
}

export interface Box {
	x: number;
	y: number;
	width: number;
	height: number;
}

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 4;
const FIT_MARGIN = 24;

const clampZoom = (k: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k));

export function bounds(boxes: readonly Box[]): Box {
	if (boxes.length === 0) return { x: 0, y: 0, width: 1, height: 1 };
	let x0 = Infinity;
	let y0 = Infinity;
	let x1 = -Infinity;
	let y1 = -Infinity;
	for (const b of boxes) {
		x0 = Math.min(x0, b.x);
		y0 = Math.min(y0, b.y);
		x1 = Math.max(x1, b.x + b.width);
		y1 = Math.max(y1, b.y + b.height);
	}
	return { x: x0, y: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
}

/** The whole of `box` in a `width` × `height` screen, centred, never zoomed in beyond 1. */
export function fitView(box: Box, width: number, height: number): View {
	const k = clampZoom(Math.min(1, (width - 2 * FIT_MARGIN) / box.width, (height - 2 * FIT_MARGIN) / box.height));
	return { k, tx: (width - box.width * k) / 2 - box.x * k, ty: (height - box.height * k) / 2 - box.y * k };
}

/**
 * The view a graph opens with: the whole of it when its words are still readable there (zoom at
 * least `readable`), else zoomed to `readable` on `focus` (the running box, or the first one), moved
 * no further than the graph's edges, and centred along an axis the graph does not fill.
 */
export function readableView(all: Box, focus: Box | undefined, width: number, height: number, readable: number): View {
	const fitted = fitView(all, width, height);
	if (fitted.k >= readable) return fitted;
	const k = clampZoom(readable);
	/** Along one axis: centred when the graph fits, else on the focus (or from the graph's start), never past its edges. */
	const along = (screen: number, start: number, size: number, centre: number | undefined): number => {
		if (size * k + 2 * FIT_MARGIN <= screen) return (screen - size * k) / 2 - start * k;
		const wanted = centre === undefined ? FIT_MARGIN - start * k : screen / 2 - centre * k;
		return Math.min(FIT_MARGIN - start * k, Math.max(screen - FIT_MARGIN - (start + size) * k, wanted));
	};
	return {
		k,
		tx: along(width, all.x, all.width, focus ? focus.x + focus.width / 2 : undefined),
		ty: along(height, all.y, all.height, focus ? focus.y + focus.height / 2 : undefined)
	};
}

/** Zooms by `factor` keeping the workflow point under screen point (px, py) where it is. */
export function zoomAt(view: View, px: number, py: number, factor: number): View {
	const k = clampZoom(view.k * factor);
	const f = k / view.k;
	return { k, tx: px - (px - view.tx) * f, ty: py - (py - view.ty) * f };
}

/** Centres `box` on screen at the current zoom (following the running node). */
export function centreOn(view: View, box: Box, width: number, height: number): View {
	return { k: view.k, tx: width / 2 - (box.x + box.width / 2) * view.k, ty: height / 2 - (box.y + box.height / 2) * view.k };
}

/** Whether `box` is wholly on screen. */
export function inView(view: View, box: Box, width: number, height: number): boolean {
	const x = box.x * view.k + view.tx;
	const y = box.y * view.k + view.ty;
	return x >= 0 && y >= 0 && x + box.width * view.k <= width && y + box.height * view.k <= height;
}

export type Direction = 'left' | 'right' | 'up' | 'down';

/**
 * The box an arrow key moves to from `from`: the nearest centre in that direction, with sideways
 * distance counted double so the move stays in its row or column.
 */
export function neighbour<T extends Box & { id: string }>(boxes: readonly T[], from: T, direction: Direction): T | undefined {
	const cx = from.x + from.width / 2;
	const cy = from.y + from.height / 2;
	let best: T | undefined;
	let bestScore = Infinity;
	for (const b of boxes) {
		if (b.id === from.id) continue;
		const dx = b.x + b.width / 2 - cx;
		const dy = b.y + b.height / 2 - cy;
		const [along, across] = direction === 'left' ? [-dx, dy] : direction === 'right' ? [dx, dy] : direction === 'up' ? [-dy, dx] : [dy, dx];
		if (along <= 0) continue;
		const score = along + 2 * Math.abs(across);
		if (score < bestScore) {
			bestScore = score;
			best = b;
		}
	}
	return best;
}
