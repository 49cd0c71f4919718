/**
 * The size of a thumbnail: the picture scaled down, never up, so its longest side is at most `side`,
 * keeping its shape and at least one pixel each way. Pure: the worker draws what this says.
 */
export const THUMBNAIL_SIDE = 256;

export interface PictureSize {
	width: number;
	height: number;
}

/** The size to draw at, and whether the picture already fits (then it is kept as it is). */
export function thumbnailSize(width: number, height: number, side = THUMBNAIL_SIDE): PictureSize & { fits: boolean } {
	const longest = Math.max(width, height);
	if (longest <= side) return { width, height, fits: true };
	const scale = side / longest;
	return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)), fits: false };
}

/** A video's poster is always drawn (a frame is not a file to keep as it is): the thumbnail's size, at least 1 px each way. */
export function posterSize(width: number, height: number, side = THUMBNAIL_SIDE): PictureSize {
	const size = thumbnailSize(Math.max(1, width), Math.max(1, height), side);
	return { width: size.width, height: size.height };
}
