/**
 * Choosing a video's poster frame: where to look (about a tenth in, at most one second, then later
 * if that frame is dark) and when a frame is too dark to stand for the video (a fade-in, a black lead).
 */

/** Times to try, in order: min(1 s, 10 %), then a quarter and a half in (a video that opens on black). */
export function posterTimes(duration: number): number[] {
	if (!Number.isFinite(duration) || duration <= 0) return [0];
	const first = Math.min(1, duration * 0.1);
	return [first, duration * 0.25, duration * 0.5].filter((t, i, all) => i === 0 || t > all[i - 1]!);
}

/** Mean luma (0-255) of RGBA pixels, reading every `step`-th pixel. */
export function meanLuma(rgba: ArrayLike<number>, step = 4): number {
	let sum = 0;
	let count = 0;
	for (let i = 0; i + 2 < rgba.length; i += 4 * step) {
		sum += 0.2126 * rgba[i]! + 0.7152 * rgba[i + 1]! + 0.0722 * rgba[i + 2]!;
		count++;
	}
	return count ? sum / count : 0;
}

/** A frame this dark is passed over while a later one may be better. */
export const DARK_LUMA = 12;

export function isDarkFrame(rgba: ArrayLike<number>): boolean {
	return meanLuma(rgba) < DARK_LUMA;
}
