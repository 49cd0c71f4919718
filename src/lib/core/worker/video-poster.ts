/**
 * A video's poster, made in the worker: its first frame, longest side at most 256 px, as WebP, like
 * an image's thumbnail (`thumbnail.ts`). A worker has no <video> element, so a WebM's or an MP4's
 * first frame is found in its bytes (`protocol/video/`) and decoded with WebCodecs (decision
 * 0064); an animated image saved as a video (ComfyUI's animated WebP) is decoded as a picture, whose
 * first frame is the poster. Anything else is an error value that says why: nothing throws.
 */
import { appError, fail, ok, type Result } from '../protocol/errors';
import { mp4FirstFrame } from '../protocol/video/mp4-first-frame';
import { webmFirstFrame, type EncodedFirstFrame, type FirstFrameProblem } from '../protocol/video/webm-first-frame';
import { posterSize } from '../rules/thumbnail-size';
import { decoderConfig, type DecoderConfig } from '../rules/video-decoder-config';

/** A WebM's tracks and first frame sit in its first bytes; more than this is not read. */
const HEAD_BYTES = 8 * 1024 * 1024;
const DECODE_TIMEOUT_MS = 10_000;

type Drawable = ImageBitmap | VideoFrame;

/** The container the bytes are in, by their first bytes (a stored Blob's type may be missing). */
export function videoContainer(head: Uint8Array): 'webm' | 'mp4' | 'picture' | 'unknown' {
	const text = (from: number, length: number) => String.fromCharCode(...head.subarray(from, from + length));
	if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'webm';
	if (text(4, 4) === 'ftyp') return 'mp4';
	if ((text(0, 4) === 'RIFF' && text(8, 4) === 'WEBP') || text(0, 4) === 'GIF8' || text(1, 3) === 'PNG') return 'picture';
	return 'unknown';
}

async function draw(source: Drawable, width: number, height: number): Promise<Result<Blob>> {
	const size = posterSize(width, height);
	const canvas = new OffscreenCanvas(size.width, size.height);
	const g = canvas.getContext('2d');
	if (!g) return fail(appError('unknown', 'This browser cannot draw pictures in the background.'));
	g.drawImage(source, 0, 0, size.width, size.height);
	return ok(await canvas.convertToBlob({ type: 'image/webp', quality: 0.8 }));
}

/** One frame decoded with WebCodecs; the caller closes it. */
async function decodeOne(config: DecoderConfig, frame: Uint8Array): Promise<Result<VideoFrame>> {
	if (typeof VideoDecoder === 'undefined')
		return fail(appError('unknown', 'This browser cannot decode video in the background (no WebCodecs).'));
	const support = await VideoDecoder.isConfigSupported(config).catch(() => null);
	if (!support?.supported) return fail(appError('unknown', `This browser cannot decode this video's codec (${config.codec}).`));
	return new Promise((resolve) => {
		let settled = false;
		const settle = (result: Result<VideoFrame>) => {
			if (settled) {
				if (result.ok) result.value.close();
				return;
			}
			settled = true;
			clearTimeout(timer);
			if (decoder.state !== 'closed') decoder.close();
			resolve(result);
		};
		const timer = setTimeout(() => settle(fail(appError('timeout', 'The video took too long to decode for a poster.'))), DECODE_TIMEOUT_MS);
		const decoder = new VideoDecoder({
			output: (decoded) => settle(ok(decoded)),
			error: (error) => settle(fail(appError('bad-response', `The video's first frame could not be decoded (${error.message}).`)))
		});
		try {
			decoder.configure(config);
			decoder.decode(new EncodedVideoChunk({ type: 'key', timestamp: 0, data: frame }));
			decoder.flush().then(
				() => settle(fail(appError('bad-response', 'The video gave no frame to make a poster of.'))),
				(error: unknown) => settle(fail(appError('bad-response', `The video's first frame could not be decoded (${String(error)}).`)))
			);
		} catch (error) {
			settle(fail(appError('bad-response', `The video's first frame could not be decoded (${String(error)}).`)));
		}
	});
}

type FirstFrame = { ok: true; value: EncodedFirstFrame } | { ok: false; error: FirstFrameProblem };

/** A WebM's tracks and first frame are at its start; an MP4's index (`moov`) may be at its end, so it is read by its box headers. */
async function firstFrame(video: Blob, container: 'webm' | 'mp4'): Promise<FirstFrame> {
	if (container === 'mp4') {
		return mp4FirstFrame({ size: video.size, slice: async (start, end) => new Uint8Array(await video.slice(start, end).arrayBuffer()) });
	}
	return webmFirstFrame(new Uint8Array(await video.slice(0, HEAD_BYTES).arrayBuffer()));
}

async function videoPoster(video: Blob, container: 'webm' | 'mp4'): Promise<Result<Blob>> {
	const first = await firstFrame(video, container);
	if (!first.ok) return fail(appError('bad-response', first.error.message));
	const config = decoderConfig(first.value);
	if (!config.ok) return fail(appError('unknown', config.message));
	const decoded = await decodeOne(config.value, first.value.frame);
	if (!decoded.ok) return decoded;
	try {
		return await draw(decoded.value, decoded.value.displayWidth, decoded.value.displayHeight);
	} catch (error) {
		return fail(appError('unknown', `The poster could not be drawn (${String(error)}).`));
	} finally {
		decoded.value.close();
	}
}

async function picturePoster(picture: Blob): Promise<Result<Blob>> {
	let bitmap: ImageBitmap;
	try {
		bitmap = await createImageBitmap(picture);
	} catch (error) {
		return fail(appError('bad-response', `This animation could not be read as a picture (${String(error)}).`));
	}
	try {
		return await draw(bitmap, bitmap.width, bitmap.height);
	} catch (error) {
		return fail(appError('unknown', `The poster could not be drawn (${String(error)}).`));
	} finally {
		bitmap.close();
	}
}

/** The poster of a video output, or why there is none. */
export async function makePoster(video: Blob): Promise<Result<Blob>> {
	try {
		const container = videoContainer(new Uint8Array(await video.slice(0, 16).arrayBuffer()));
		if (container === 'webm' || container === 'mp4') return await videoPoster(video, container);
		if (container === 'picture') return await picturePoster(video);
		return fail(appError('bad-response', 'This output is not a video this app can read.'));
	} catch (error) {
		return fail(appError('unknown', `The poster could not be made (${String(error)}).`));
	}
}
