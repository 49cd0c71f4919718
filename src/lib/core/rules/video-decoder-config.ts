/**
 * The WebCodecs decoder configuration for a Matroska video track: its codec string and, where the
 * codec needs one, its description. Pure: the worker asks the browser whether it can decode it.
 * H.264 is named by the profile and level inside its `avcC` record; VP9 and AV1 decoders read the
 * real profile from the stream, so a plain baseline string is enough to pick the decoder.
 */
export interface DecoderConfig {
	codec: string;
	description?: Uint8Array;
	codedWidth?: number;
	codedHeight?: number;
}

const hex = (n: number) => n.toString(16).padStart(2, '0').toUpperCase();

export function decoderConfig(track: {
	codecId: string;
	codecPrivate: Uint8Array | null;
	width: number;
	height: number;
}): { ok: true; value: DecoderConfig } | { ok: false; message: string } {
	const size = track.width > 0 && track.height > 0 ? { codedWidth: track.width, codedHeight: track.height } : {};
	switch (track.codecId) {
		case 'V_VP8':
			return { ok: true, value: { codec: 'vp8', ...size } };
		case 'V_VP9':
			return { ok: true, value: { codec: 'vp09.00.10.08', ...size } };
		case 'V_AV1':
			return { ok: true, value: { codec: 'av01.0.04M.08', ...size } };
		case 'V_MPEG4/ISO/AVC': {
			const avcC = track.codecPrivate;
			if (!avcC || avcC.length < 4 || avcC[0] !== 1) return { ok: false, message: 'Its H.264 track has no valid decoder record.' };
			return { ok: true, value: { codec: `avc1.${hex(avcC[1]!)}${hex(avcC[2]!)}${hex(avcC[3]!)}`, description: avcC, ...size } };
		}
		default:
			return { ok: false, message: `Its video codec (${track.codecId || 'unnamed'}) is not one this app reads for posters.` };
	}
}
