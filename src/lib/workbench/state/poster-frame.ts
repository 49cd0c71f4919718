/**
 * A video's poster: a frame of the video itself (a tenth in, at most 1 s, later if that one is dark),
 * drawn to a canvas and kept as a small JPEG, so tiles and thumbnails show the video, not a blank box.
 * Only saved bytes (blob: and data: addresses) are read: that costs no network, and a remote host
 * without CORS headers would taint the canvas anyway. Each page keeps its posters in a `PosterCache`
 * and disposes it when it goes, which revokes them; they are made one at a time (the machine may be a phone).
 */
import { appError, fail, ok, type Result } from '$lib/core/protocol/errors';
import { isDarkFrame, posterTimes } from '$lib/workbench/rules/poster-frame';

const MAX_WIDTH = 480;
const TIMEOUT_MS = 15_000;

/** Resolves on `event`, fails on the element's `error`, on abort, or after the timeout. */
function next(video: HTMLVideoElement, event: 'loadeddata' | 'seeked', signal: AbortSignal): Promise<Result<void>> {
	return new Promise((resolve) => {
		const done = (result: Result<void>) => {
			clearTimeout(timer);
			video.removeEventListener(event, onEvent);
			video.removeEventListener('error', onError);
			signal.removeEventListener('abort', onAbort);
			resolve(result);
		};
		const onEvent = () => done(ok(undefined));
		const onError = () =>
			done(fail(appError('bad-response', `This video could not be read for a poster frame (${video.error?.message || 'no detail'}).`)));
		const onAbort = () => done(fail(appError('aborted', 'The poster frame was no longer needed.')));
		const timer = setTimeout(() => done(fail(appError('timeout', 'The video took too long to load for a poster frame.'))), TIMEOUT_MS);
		video.addEventListener(event, onEvent, { once: true });
		video.addEventListener('error', onError, { once: true });
		if (signal.aborted) onAbort();
		else signal.addEventListener('abort', onAbort, { once: true });
	});
}

const jpeg = (canvas: HTMLCanvasElement) =>
	new Promise<Blob | null>((resolve) => canvas.toBlob((blob) => resolve(blob), 'image/jpeg', 0.82));

/** One poster frame of the video at `src` (a blob: or data: address), as a JPEG. */
export async function grabPosterFrame(src: string, signal: AbortSignal): Promise<Result<Blob>> {
	if (!/^(blob|data):/.test(src)) return fail(appError('invalid-input', 'Poster frames are made from saved video bytes only.'));
	const video = document.createElement('video');
	video.muted = true;
	video.playsInline = true;
	video.preload = 'auto';
	video.src = src;
	try {
		const loaded = await next(video, 'loadeddata', signal);
		if (!loaded.ok) return loaded;
		const width = Math.min(video.videoWidth, MAX_WIDTH);
		const height = Math.round((video.videoHeight * width) / (video.videoWidth || 1));
		if (!width || !height) return fail(appError('bad-response', 'This video has no picture to take a poster frame from.'));
		const canvas = document.createElement('canvas');
		canvas.width = width;
		canvas.height = height;
		const context = canvas.getContext('2d', { willReadFrequently: true });
		if (!context) return fail(appError('unknown', 'This browser gave no canvas to draw a poster frame on.'));
		const times = posterTimes(video.duration);
		for (const [i, time] of times.entries()) {
			if (video.currentTime !== time) {
				video.currentTime = time;
				const seeked = await next(video, 'seeked', signal);
				if (!seeked.ok) return seeked;
			}
			context.drawImage(video, 0, 0, width, height);
			if (i < times.length - 1 && isDarkFrame(context.getImageData(0, 0, width, height).data)) continue;
			break;
		}
		const blob = await jpeg(canvas);
		return blob ? ok(blob) : fail(appError('unknown', 'The poster frame could not be encoded.'));
	} finally {
		video.removeAttribute('src');
		video.load();
	}
}

/** Posters are made one at a time across the app (the machine may be a phone). */
let queue: Promise<unknown> = Promise.resolve();

/**
 * A page's posters: one object URL per video address, made once (failures too: they would fail
 * again), and revoked when the page lets the cache go. Keyed by addresses the page owns (its blob:
 * URLs), so the cache lives and dies with the page, never across pages.
 */
export class PosterCache {
	private readonly made = new Map<string, Promise<Result<string>>>();
	private readonly stop = new AbortController();

	constructor(private readonly grab: (src: string, signal: AbortSignal) => Promise<Result<Blob>> = grabPosterFrame) {}

	/** An object URL of the poster of the video at `src`, valid until `dispose`. */
	posterUrl(src: string): Promise<Result<string>> {
		if (this.stop.signal.aborted) return Promise.resolve(fail(appError('aborted', 'The page these posters were for is gone.')));
		let url = this.made.get(src);
		if (!url) {
			url = queue
				.then(() =>
					this.stop.signal.aborted ? fail(appError('aborted', 'The poster frame was no longer needed.')) : this.grab(src, this.stop.signal)
				)
				.then(
					(result) =>
						!result.ok
							? result
							: this.stop.signal.aborted
								? fail(appError('aborted', 'The poster frame was no longer needed.'))
								: ok(URL.createObjectURL(result.value)),
					(error: unknown) => fail(appError('unknown', `The poster frame could not be made: ${String(error)}`))
				);
			queue = url;
			this.made.set(src, url);
		}
		return url;
	}

	/** Stops what is being made and revokes every poster URL made, for the page that is going away. */
	dispose(): void {
		this.stop.abort();
		for (const url of this.made.values()) void url.then((made) => made.ok && URL.revokeObjectURL(made.value));
		this.made.clear();
	}
}
