/**
 * The first frame of an MP4 / QuickTime video's first video track: the sample entry's codec and
 * decoder record, the track's size, and the bytes of its first sample. `moov` may sit after the media
 * data (ffmpeg writes it last unless told otherwise), so boxes are walked by their headers through a
 * random-access source and only `moov` and the first sample are read, never the rest of `mdat`.
 * Codecs are named as Matroska names them, so one rule (`rules/video-decoder-config.ts`) serves both.
 */
import type { EncodedFirstFrame, FirstFrameProblem } from './webm-first-frame';

export interface RandomAccess {
	readonly size: number;
	/** The bytes in [start, end). */
	slice(start: number, end: number): Promise<Uint8Array>;
}

interface Box {
	type: string;
	start: number;
	end: number;
}

/** `moov` larger than this is not read (a long video's tables are a few MiB at most). */
const MAX_MOOV_BYTES = 32 * 1024 * 1024;
const MAX_BOXES = 10_000;
/** Sample entry fourcc to the codec's Matroska name. */
const CODECS: Readonly<Record<string, string>> = {
	avc1: 'V_MPEG4/ISO/AVC',
	avc3: 'V_MPEG4/ISO/AVC',
	vp08: 'V_VP8',
	vp09: 'V_VP9',
	av01: 'V_AV1',
	hvc1: 'V_MPEGH/ISO/HEVC',
	hev1: 'V_MPEGH/ISO/HEVC'
};
/** Decoder records inside a sample entry, by the entry's codec. */
const RECORDS: Readonly<Record<string, string>> = { avc1: 'avcC', avc3: 'avcC', av01: 'av1C', vp09: 'vpcC', hvc1: 'hvcC', hev1: 'hvcC' };

class Cut extends Error {}
class Bad extends Error {}

const u32 = (b: Uint8Array, at: number) => {
	if (at + 4 > b.length) throw new Bad('a box is shorter than its fields');
	return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
};
const u16 = (b: Uint8Array, at: number) => {
	if (at + 2 > b.length) throw new Bad('a box is shorter than its fields');
	return (b[at]! << 8) | b[at + 1]!;
};
const fourcc = (b: Uint8Array, at: number) => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

/** The boxes in [start, end) of bytes in memory (`moov` is read whole). */
function boxesIn(b: Uint8Array, start: number, end: number): Box[] {
	const out: Box[] = [];
	for (let at = start; at + 8 <= end;) {
		let size = u32(b, at);
		let header = 8;
		if (size === 1) {
			size = u32(b, at + 8) * 2 ** 32 + u32(b, at + 12);
			header = 16;
		} else if (size === 0) size = end - at;
		if (size < header || at + size > end) throw new Bad(`the box at byte ${at} runs past its parent`);
		out.push({ type: fourcc(b, at + 4), start: at + header, end: at + size });
		if (out.length > MAX_BOXES) throw new Bad('a box holds too many boxes');
		at += size;
	}
	return out;
}

const child = (b: Uint8Array, parent: Box, type: string) => boxesIn(b, parent.start, parent.end).find((box) => box.type === type);

/** The top-level `moov`, found by walking the file's box headers. */
async function findMoov(file: RandomAccess): Promise<Uint8Array> {
	for (let at = 0, seen = 0; at < file.size && seen < MAX_BOXES; seen++) {
		const head = await file.slice(at, Math.min(file.size, at + 16));
		if (head.length < 8) throw new Cut();
		let size = u32(head, 0);
		if (size === 1) {
			if (head.length < 16) throw new Cut();
			size = u32(head, 8) * 2 ** 32 + u32(head, 12);
		} else if (size === 0) size = file.size - at;
		if (size < 8) throw new Bad(`the box at byte ${at} is malformed`);
		if (fourcc(head, 4) === 'moov') {
			if (size > MAX_MOOV_BYTES) throw new Bad('its index (moov) is implausibly large');
			if (at + size > file.size) throw new Cut();
			const moov = await file.slice(at, at + size);
			return moov;
		}
		at += size;
	}
	throw new Cut();
}

interface VideoTrack {
	codecId: string;
	codecPrivate: Uint8Array | null;
	width: number;
	height: number;
	offset: number;
	length: number;
}

function videoTrack(moov: Uint8Array): VideoTrack | null {
	const top = { type: 'moov', start: 8, end: moov.length };
	for (const trak of boxesIn(moov, top.start, top.end).filter((box) => box.type === 'trak')) {
		const mdia = child(moov, trak, 'mdia');
		const hdlr = mdia && child(moov, mdia, 'hdlr');
		if (!mdia || !hdlr || fourcc(moov, hdlr.start + 8) !== 'vide') continue;
		const minf = child(moov, mdia, 'minf');
		const stbl = minf && child(moov, minf, 'stbl');
		const stsd = stbl && child(moov, stbl, 'stsd');
		if (!stbl || !stsd) throw new Bad('its video track has no sample table');
		const [entry] = boxesIn(moov, stsd.start + 8, stsd.end);
		if (!entry) throw new Bad('its video track has no sample description');
		const codecId = CODECS[entry.type] ?? entry.type;
		const width = u16(moov, entry.start + 24);
		const height = u16(moov, entry.start + 26);
		const recordType = RECORDS[entry.type];
		const record = recordType ? boxesIn(moov, entry.start + 78, entry.end).find((box) => box.type === recordType) : undefined;
		// vpcC and av1C lead with a version byte the decoders do not want; avcC is the description as it is.
		const codecPrivate = record && entry.type.startsWith('avc') ? moov.slice(record.start, record.end) : null;
		const stco = child(moov, stbl, 'stco');
		const co64 = child(moov, stbl, 'co64');
		const stsz = child(moov, stbl, 'stsz');
		if ((!stco && !co64) || !stsz) throw new Bad('its video track has no sample offsets or sizes');
		if ((stco ? u32(moov, stco.start + 4) : u32(moov, co64!.start + 4)) === 0) throw new Bad('its video track has no samples');
		const offset = stco ? u32(moov, stco.start + 8) : u32(moov, co64!.start + 8) * 2 ** 32 + u32(moov, co64!.start + 12);
		const fixed = u32(moov, stsz.start + 4);
		const length = fixed !== 0 ? fixed : u32(moov, stsz.start + 12);
		return { codecId, codecPrivate, width, height, offset, length };
	}
	return null;
}

export async function mp4FirstFrame(
	file: RandomAccess
): Promise<{ ok: true; value: EncodedFirstFrame } | { ok: false; error: FirstFrameProblem }> {
	try {
		const track = videoTrack(await findMoov(file));
		if (!track) return { ok: false, error: { kind: 'no-video-track', message: 'The file has no video track.' } };
		if (track.length === 0 || track.offset + track.length > file.size) throw new Cut();
		const frame = await file.slice(track.offset, track.offset + track.length);
		const { codecId, codecPrivate, width, height } = track;
		return { ok: true, value: { codecId, codecPrivate, width, height, frame } };
	} catch (error) {
		if (error instanceof Cut) return { ok: false, error: { kind: 'truncated', message: 'The video ends before its first frame.' } };
		if (error instanceof Bad) return { ok: false, error: { kind: 'corrupt', message: `The video cannot be read: ${error.message}.` } };
		throw error;
	}
}
