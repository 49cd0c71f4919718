/** How far the grid zooms: by a pinch on a phone, or by its buttons. */
export const MIN_ZOOM = 0.4;
export const MAX_ZOOM = 2;

const clamp = (z: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round(z * 100) / 100));

/** The zoom during a pinch: the zoom when two fingers went down, scaled by how far apart they are now. */
export function pinchZoom(startZoom: number, startDistance: number, distance: number): number {
	if (startDistance <= 0) return clamp(startZoom);
	return clamp((startZoom * distance) / startDistance);
}

/** One step of the zoom buttons. */
export function stepZoom(zoom: number, direction: 1 | -1): number {
	return clamp(direction > 0 ? zoom * 1.25 : zoom / 1.25);
}
