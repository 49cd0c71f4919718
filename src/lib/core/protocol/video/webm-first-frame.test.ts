import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { webmFirstFrame } from './webm-first-frame';

/** The emulator's two-second WebM (VP9, 160 x 90), the video its video nodes and models hand out. */
const clip = new Uint8Array(readFileSync(new URL('../../../../../emulator/router/provider/fixtures/clip.webm', import.meta.url)));

describe("a WebM's first frame", () => {
	it("reads the emulator clip's VP9 track and its first key frame", () => {
		const first = webmFirstFrame(clip);
		expect(first.ok).toBe(true);
		if (!first.ok) return;
		expect(first.value).toMatchObject({ codecId: 'V_VP9', width: 160, height: 90 });
		// A VP9 key frame starts with its frame marker (0b10 in the top bits) and the sync code 0x49 0x83 0x42.
		expect(first.value.frame[0]! >> 6).toBe(0b10);
		expect([...first.value.frame.subarray(1, 4)]).toEqual([0x49, 0x83, 0x42]);
	});

	it('is cut off anywhere before the end of its first frame: "truncated", never a throw or a wrong frame', () => {
		const first = webmFirstFrame(clip);
		if (!first.ok) throw new Error('the clip must read');
		const frame = first.value.frame;
		const at = clip.findIndex((_, i) => frame.subarray(0, 16).every((byte, j) => clip[i + j] === byte));
		const end = at + frame.length;
		expect(at).toBeGreaterThan(0);
		for (let length = 0; length < end; length += 7) {
			const cut = webmFirstFrame(clip.subarray(0, length));
			expect(cut.ok, `cut at ${length}`).toBe(false);
			if (!cut.ok) expect(['truncated', 'not-matroska'], `cut at ${length}`).toContain(cut.error.kind);
		}
	});

	it.each([
		{ what: 'a PNG', bytes: Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), kind: 'not-matroska' },
		{ what: 'nothing', bytes: new Uint8Array(0), kind: 'not-matroska' },
		{ what: 'an EBML header then garbage', bytes: Uint8Array.of(0x1a, 0x45, 0xdf, 0xa3, 0x80, ...new Array(20).fill(0)), kind: 'corrupt' }
	])('$what is not read as a video: $kind', ({ bytes, kind }) => {
		const first = webmFirstFrame(bytes);
		expect(first).toMatchObject({ ok: false, error: { kind } });
	});
});
