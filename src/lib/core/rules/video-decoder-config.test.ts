import { describe, expect, it } from 'vitest';
import { decoderConfig } from './video-decoder-config';

const track = (codecId: string, codecPrivate: Uint8Array | null = null) => ({ codecId, codecPrivate, width: 160, height: 90 });
const avcC = Uint8Array.of(1, 0x64, 0x00, 0x1f, 0xff, 0xe1);

describe('the decoder a video track needs', () => {
	it.each([
		{ what: 'VP8', track: track('V_VP8'), codec: 'vp8' },
		{ what: 'VP9 (the emulator clip, ComfyUI SaveWEBM)', track: track('V_VP9'), codec: 'vp09.00.10.08' },
		{ what: 'AV1', track: track('V_AV1'), codec: 'av01.0.04M.08' },
		{ what: 'H.264 named by the profile and level in its record', track: track('V_MPEG4/ISO/AVC', avcC), codec: 'avc1.64001F' }
	])('$what', ({ track, codec }) => {
		const config = decoderConfig(track);
		expect(config).toMatchObject({ ok: true, value: { codec, codedWidth: 160, codedHeight: 90 } });
	});

	it('H.264 carries its record as the description', () => {
		expect(decoderConfig(track('V_MPEG4/ISO/AVC', avcC))).toMatchObject({ ok: true, value: { description: avcC } });
	});

	it.each([
		{ what: 'H.264 without its record', track: track('V_MPEG4/ISO/AVC'), message: /no valid decoder record/ },
		{
			what: 'a codec the app does not read',
			track: track('V_MPEGH/ISO/HEVC'),
			message: /\(V_MPEGH\/ISO\/HEVC\) is not one this app reads/
		},
		{ what: 'a track with no codec name', track: track(''), message: /\(unnamed\)/ }
	])('$what: no config, and words that say why', ({ track, message }) => {
		const config = decoderConfig(track);
		expect(config.ok).toBe(false);
		if (!config.ok) expect(config.message).toMatch(message);
	});
});
