/**
 * Ogg Opus (and Ogg Vorbis): reads pages from the start until the comment packet (`OpusTags`, the
 * second packet of the first stream) is whole; audio pages after it are never read.
 */
import { ascii, u32le } from './binary';
import type { FileReader } from './byte-source';
import { FileProblem } from './file-problem';
import { formatMiB, MAX_ELEMENTS, MAX_METADATA_BYTES } from './limits';
import { TextCollector } from './texts';
import { readVorbisComment } from './vorbis-comment';

export async function readOgg(file: FileReader): Promise<{ format: 'opus' | 'ogg'; texts: TextCollector }> {
	const packets: Uint8Array[] = [];
	let pending: Uint8Array[] = [];
	let pendingLength = 0;
	let serial: number | null = null;
	let offset = 0;
	for (let index = 0; packets.length < 2; index++) {
		if (index >= MAX_ELEMENTS) throw new FileProblem('too-large', `it has more than ${MAX_ELEMENTS} Ogg pages before its tags`);
		if (offset >= file.size) throw new FileProblem('truncated', 'the Ogg stream ends before its tags');
		const head = await file.read(offset, 27, 'an Ogg page header');
		if (ascii(head, 0, 4) !== 'OggS' || head[4] !== 0) throw new FileProblem('corrupt', `there is no Ogg page at byte ${offset}`);
		const pageSerial = u32le(head, 14);
		const segments = await file.read(offset + 27, head[26]!, 'an Ogg page header');
		let bodyLength = 0;
		for (const s of segments) bodyLength += s;
		const bodyStart = offset + 27 + segments.length;
		offset = bodyStart + bodyLength;
		serial ??= pageSerial;
		if (pageSerial !== serial) continue;
		const body = await file.read(bodyStart, bodyLength, 'an Ogg page');
		let at = 0;
		for (const s of segments) {
			pending.push(body.subarray(at, at + s));
			pendingLength += s;
			at += s;
			if (pendingLength > MAX_METADATA_BYTES)
				throw new FileProblem('too-large', `its tags are larger than ${formatMiB(MAX_METADATA_BYTES)}`);
			if (s < 255) {
				packets.push(join(pending, pendingLength));
				pending = [];
				pendingLength = 0;
				if (packets.length === 2) break;
			}
		}
	}
	const [first, tags] = packets as [Uint8Array, Uint8Array];
	const texts = new TextCollector();
	if (ascii(first, 0, 8) === 'OpusHead') {
		if (ascii(tags, 0, 8) !== 'OpusTags') throw new FileProblem('corrupt', 'its second Opus packet is not OpusTags');
		readVorbisComment(tags.subarray(8), texts);
		return { format: 'opus', texts };
	}
	if (ascii(first, 0, 7) === '\x01vorbis') {
		if (ascii(tags, 0, 7) !== '\x03vorbis') throw new FileProblem('corrupt', 'its second Vorbis packet is not the comment header');
		readVorbisComment(tags.subarray(7), texts);
		return { format: 'ogg', texts };
	}
	throw new FileProblem('unsupported', 'it is an Ogg file that holds neither Opus nor Vorbis audio');
}

function join(parts: Uint8Array[], length: number): Uint8Array {
	const out = new Uint8Array(length);
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}
