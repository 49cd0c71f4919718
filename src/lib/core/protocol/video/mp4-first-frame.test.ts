import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mp4FirstFrame, type RandomAccess } from './mp4-first-frame';

/** ComfyUI's SaveVideo output as its script makes it (ffmpeg through PyAV; `moov` at the end, after the media). */
const video = new Uint8Array(readFileSync(new URL('../../../../../tests/fixtures/workflow-files/video.mp4', import.meta.url)));

/** The bytes as a random-access source that counts what it reads. */
function source(bytes: Uint8Array): RandomAccess & { read: number } {
	const s = {
		size: bytes.length,
		read: 0,
		slice: async (start: number, end: number) => {
			s.read += Math.min(end, bytes.length) - start;
			return bytes.subarray(start, end);
		}
	};
	return s;
}

describe("an MP4's first frame", () => {
	it('reads the H.264 track of a ComfyUI video: its decoder record, its size and its first sample', async () => {
		const first = await mp4FirstFrame(source(video));
		expect(first.ok).toBe(true);
		if (!first.ok) return;
		expect(first.value).toMatchObject({ codecId: 'V_MPEG4/ISO/AVC', width: 32, height: 32 });
		expect(first.value.codecPrivate?.[0], 'an avcC record starts with its version, 1').toBe(1);
		// The first sample is length-prefixed NAL units: the first length fits in the sample.
		const nal = first.value.frame;
		expect(((nal[0]! << 24) | (nal[1]! << 16) | (nal[2]! << 8) | nal[3]!) + 4).toBeLessThanOrEqual(nal.length);
	});

	it('is cut off anywhere: never a throw, never a frame past the end', async () => {
		for (let length = 0; length < video.length; length += 97) {
			const cut = await mp4FirstFrame(source(video.subarray(0, length)));
			expect(cut.ok, `cut at ${length}`).toBe(false);
		}
	});

	it.each([
		{ what: 'a WebM', bytes: Uint8Array.of(0x1a, 0x45, 0xdf, 0xa3, 0x80, 0, 0, 0, 0) },
		{ what: 'words', bytes: new TextEncoder().encode('not a video at all, just words') },
		{ what: 'nothing', bytes: new Uint8Array(0) }
	])('$what is not read as a video', async ({ bytes }) => {
		expect((await mp4FirstFrame(source(bytes))).ok).toBe(false);
	});
});
