/**
 * MP3: the ID3v2 tag at the start of the file (v2.2, v2.3, v2.4), where ffmpeg's mp3 muxer puts
 * container metadata with non-standard names (ComfyUI's `prompt`, `workflow`) as `TXXX` frames whose
 * description is the key. Only the tag is read, never the audio.
 */
import { ascii, latin1, u32be } from './binary';
import type { FileReader } from './byte-source';
import { FileProblem, quoted } from './file-problem';
import { formatMiB, MAX_ELEMENTS, MAX_METADATA_BYTES } from './limits';
import { TextCollector } from './texts';

function synchsafe(b: Uint8Array, at: number): number {
	for (let i = 0; i < 4; i++) if (b[at + i]! & 0x80) throw new FileProblem('corrupt', 'its ID3 tag has an invalid size');
	return (b[at]! << 21) | (b[at + 1]! << 14) | (b[at + 2]! << 7) | b[at + 3]!;
}

/** Undoes ID3 unsynchronisation (0xFF 0x00 → 0xFF). */
function resync(b: Uint8Array): Uint8Array {
	const out = new Uint8Array(b.length);
	let n = 0;
	for (let i = 0; i < b.length; i++) {
		out[n++] = b[i]!;
		if (b[i] === 0xff && b[i + 1] === 0x00) i++;
	}
	return out.subarray(0, n);
}

export async function readId3(file: FileReader): Promise<{ texts: TextCollector; end: number }> {
	const texts = new TextCollector();
	const head = await file.read(0, 10, 'the ID3 tag header');
	const version = head[3]!;
	const flags = head[5]!;
	const size = synchsafe(head, 6);
	if (version < 2 || version > 4) throw new FileProblem('unsupported', `its ID3 tag is version 2.${version}, which is not known`);
	if (size > MAX_METADATA_BYTES) throw new FileProblem('too-large', `its ID3 tag is larger than ${formatMiB(MAX_METADATA_BYTES)}`);
	let tag = await file.read(10, size, 'the ID3 tag');
	if (flags & 0x80 && version < 4) tag = resync(tag);
	let at = 0;
	if (flags & 0x40 && version >= 3) {
		if (tag.length < 4) throw new FileProblem('corrupt', 'its ID3 extended header is malformed');
		at = version === 4 ? synchsafe(tag, 0) : u32be(tag, 0) + 4;
	}
	const idLength = version === 2 ? 3 : 4;
	const headerLength = version === 2 ? 6 : 10;
	for (let index = 0; at + headerLength <= tag.length && tag[at] !== 0; index++) {
		if (index >= MAX_ELEMENTS) throw new FileProblem('too-large', `it has more than ${MAX_ELEMENTS} ID3 frames`);
		const id = ascii(tag, at, idLength);
		const length =
			version === 2
				? (tag[at + 3]! << 16) | (tag[at + 4]! << 8) | tag[at + 5]!
				: version === 4
					? synchsafe(tag, at + 4)
					: u32be(tag, at + 4);
		const frameFlags = version === 2 ? 0 : (tag[at + 8]! << 8) | tag[at + 9]!;
		const start = at + headerLength;
		if (start + length > tag.length) throw new FileProblem('corrupt', `the ID3 frame ${quoted(id)} runs past the tag`);
		if (id === 'TXXX' || id === 'TXX') readUserText(frameData(tag.subarray(start, start + length), version, frameFlags), texts);
		at = start + length;
	}
	return { texts, end: 10 + size + (flags & 0x10 ? 10 : 0) };
}

/** The frame's payload, or an empty one for compressed or encrypted frames (not used for text by ffmpeg). */
function frameData(data: Uint8Array, version: number, flags: number): Uint8Array {
	if (version === 3 && flags & 0x00c0) return new Uint8Array(0);
	if (version !== 4) return data;
	if (flags & 0x000c) return new Uint8Array(0);
	let body = flags & 0x0001 ? data.subarray(4) : data;
	if (flags & 0x0002) body = resync(body);
	return body;
}

const utf16 = new TextDecoder('utf-16le');
const utf16be = new TextDecoder('utf-16be');
const utf8 = new TextDecoder('utf-8');

function decode(encoding: number, bytes: Uint8Array): string {
	if (encoding === 0) return latin1.decode(bytes);
	if (encoding === 3) return utf8.decode(bytes);
	if (encoding === 2) return utf16be.decode(bytes);
	if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16be.decode(bytes.subarray(2));
	if (bytes[0] === 0xff && bytes[1] === 0xfe) return utf16.decode(bytes.subarray(2));
	return utf16.decode(bytes);
}

/** A TXXX frame: encoding, description (the key), terminator, value. */
function readUserText(data: Uint8Array, texts: TextCollector): void {
	if (data.length < 2) return;
	const encoding = data[0]!;
	if (encoding > 3) throw new FileProblem('corrupt', 'an ID3 text frame has an unknown text encoding');
	const wide = encoding === 1 || encoding === 2;
	let end = 1;
	if (wide) while (end + 1 < data.length && (data[end] !== 0 || data[end + 1] !== 0)) end += 2;
	else while (end < data.length && data[end] !== 0) end++;
	if (end >= data.length) return;
	const key = decode(encoding, data.subarray(1, end));
	let value = decode(encoding, data.subarray(end + (wide ? 2 : 1)));
	while (value.endsWith('\0')) value = value.slice(0, -1);
	texts.add(key, value);
}
