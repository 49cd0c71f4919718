/**
 * The first frame of a WebM / Matroska video's first video track, as a decoder needs it: the track's
 * codec, its private data, its size, and the bytes of its first block. Bytes in, a typed value out:
 * only the start of the file is read (Tracks sit before the first Cluster, and a video's first block
 * is a key frame), so the caller hands over a prefix. Lacing is not followed (video blocks are not laced).
 */
import { vint } from './ebml-vint';

export interface EncodedFirstFrame {
	/** Matroska's CodecID: `V_VP8`, `V_VP9`, `V_AV1`, `V_MPEG4/ISO/AVC`, ... */
	codecId: string;
	/** CodecPrivate (an `avcC` or `av1C` record), when the track has one. */
	codecPrivate: Uint8Array | null;
	width: number;
	height: number;
	frame: Uint8Array;
}

export type FirstFrameProblem =
	| { kind: 'not-matroska'; message: string }
	| { kind: 'no-video-track'; message: string }
	| { kind: 'truncated'; message: string }
	| { kind: 'corrupt'; message: string };

const EBML = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const TRACK_NUMBER = 0xd7;
const TRACK_TYPE = 0x83;
const CODEC_ID = 0x86;
const CODEC_PRIVATE = 0x63a2;
const VIDEO = 0xe0;
const PIXEL_WIDTH = 0xb0;
const PIXEL_HEIGHT = 0xba;
const CLUSTER = 0x1f43b675;
const SIMPLE_BLOCK = 0xa3;
const BLOCK_GROUP = 0xa0;
const BLOCK = 0xa1;
const VIDEO_TRACK = 1;
/** Elements whose size may be "unknown" (a live or streamed file): their children follow at once. */
const OPEN_ENDED = new Set([SEGMENT, CLUSTER]);
/** Walking stops after this many elements: a broken file must not hold the worker. */
const MAX_ELEMENTS = 100_000;

interface Header {
	id: number;
	start: number;
	/** null: "unknown" size. */
	size: number | null;
}

function header(b: Uint8Array, at: number): Header | null {
	const id = vint(b, at, true);
	if (!id || id.value === null) return null;
	const size = vint(b, at + id.length, false);
	return size ? { id: id.value, start: at + id.length + size.length, size: size.value } : null;
}

const uint = (b: Uint8Array, h: Header) => b.subarray(h.start, h.start + (h.size ?? 0)).reduce((n, byte) => n * 256 + byte, 0);

interface Track {
	number: number;
	codecId: string;
	codecPrivate: Uint8Array | null;
	width: number;
	height: number;
}

/** The children of [start, end), all of which must fit. */
function children(b: Uint8Array, start: number, end: number): Header[] | null {
	const out: Header[] = [];
	for (let at = start; at < end;) {
		const h = header(b, at);
		if (!h || h.size === null || h.start + h.size > end || out.length >= MAX_ELEMENTS) return null;
		out.push(h);
		at = h.start + h.size;
	}
	return out;
}

function videoTrack(b: Uint8Array, tracks: Header): Track | null {
	for (const entry of children(b, tracks.start, tracks.start + tracks.size!) ?? []) {
		if (entry.id !== TRACK_ENTRY) continue;
		const fields = children(b, entry.start, entry.start + entry.size!) ?? [];
		const field = (id: number) => fields.find((f) => f.id === id);
		const type = field(TRACK_TYPE);
		if (!type || uint(b, type) !== VIDEO_TRACK) continue;
		const number = field(TRACK_NUMBER);
		const codec = field(CODEC_ID);
		const priv = field(CODEC_PRIVATE);
		const video = field(VIDEO);
		const size = video ? (children(b, video.start, video.start + video.size!) ?? []) : [];
		const width = size.find((f) => f.id === PIXEL_WIDTH);
		const height = size.find((f) => f.id === PIXEL_HEIGHT);
		if (!number || !codec) continue;
		return {
			number: uint(b, number),
			codecId: new TextDecoder('latin1').decode(b.subarray(codec.start, codec.start + codec.size!)).replace(/\0+$/, ''),
			codecPrivate: priv ? b.slice(priv.start, priv.start + priv.size!) : null,
			width: width ? uint(b, width) : 0,
			height: height ? uint(b, height) : 0
		};
	}
	return null;
}

/** A block's frame when it belongs to `track` (track number, 16-bit time, flags, then the frame). */
function blockFrame(b: Uint8Array, block: Header, track: number): Uint8Array | null {
	const number = vint(b, block.start, false);
	if (!number || number.value !== track) return null;
	const frameStart = block.start + number.length + 3;
	const end = block.start + block.size!;
	return frameStart < end ? b.slice(frameStart, end) : null;
}

/** The first video frame of a WebM held in `b` (the file, or as much of its start as the caller read). */
export function webmFirstFrame(b: Uint8Array): { ok: true; value: EncodedFirstFrame } | { ok: false; error: FirstFrameProblem } {
	const ebml = header(b, 0);
	if (!ebml || ebml.id !== EBML || ebml.size === null)
		return { ok: false, error: { kind: 'not-matroska', message: 'It is not a WebM or Matroska file.' } };
	const cut = { ok: false as const, error: { kind: 'truncated' as const, message: 'The video ends before its first frame.' } };
	let track: Track | null = null;
	let at = ebml.start + ebml.size;
	for (let seen = 0; seen < MAX_ELEMENTS; seen++) {
		if (at >= b.length) return cut;
		const h = header(b, at);
		if (!h)
			return at + 12 > b.length ? cut : { ok: false, error: { kind: 'corrupt', message: `There is no valid element at byte ${at}.` } };
		if (OPEN_ENDED.has(h.id)) {
			at = h.start; // step into the Segment and each Cluster
			continue;
		}
		if (h.size === null) return { ok: false, error: { kind: 'corrupt', message: `An element at byte ${at} has no size.` } };
		const end = h.start + h.size;
		if (end > b.length) return cut;
		if (h.id === TRACKS) {
			track = videoTrack(b, h);
			if (!track) return { ok: false, error: { kind: 'no-video-track', message: 'The file has no video track.' } };
		} else if (h.id === SIMPLE_BLOCK || h.id === BLOCK_GROUP) {
			if (!track) return { ok: false, error: { kind: 'corrupt', message: 'Its frames come before its list of tracks.' } };
			const block = h.id === SIMPLE_BLOCK ? h : (children(b, h.start, end) ?? []).find((c) => c.id === BLOCK);
			const frame = block ? blockFrame(b, block, track.number) : null;
			if (frame) {
				const { codecId, codecPrivate, width, height } = track;
				return { ok: true, value: { codecId, codecPrivate, width, height, frame } };
			}
		}
		at = end;
	}
	return { ok: false, error: { kind: 'corrupt', message: 'No video frame was found among its first elements.' } };
}
