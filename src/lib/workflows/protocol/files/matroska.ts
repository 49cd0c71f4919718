/**
 * WebM / Matroska (ffmpeg's muxer, which ComfyUI's video savers drive through PyAV): container
 * metadata is written as global `Tags/Tag/SimpleTag` (TagName upper-cased by the muxer, so names are
 * lower-cased here). Top-level elements of the Segment are walked by their headers; at the first
 * cluster of media the walk ends if tags were found, or jumps to the `Tags` the SeekHead points to, so
 * a long video costs a few headers. Clusters are never read. Nesting is followed to `MAX_DEPTH` levels only.
 */
import { vint } from '../../../core/protocol/video/ebml-vint';
import { latin1, utf8 } from './binary';
import type { FileReader } from './byte-source';
import { FileProblem } from './file-problem';
import { formatMiB, MAX_DEPTH, MAX_ELEMENTS, MAX_METADATA_BYTES } from './limits';
import { TextCollector } from './texts';

const EBML = 0x1a45dfa3;
const DOC_TYPE = 0x4282;
const SEGMENT = 0x18538067;
const SEEK_HEAD = 0x114d9b74;
const SEEK = 0x4dbb;
const SEEK_ID = 0x53ab;
const SEEK_POSITION = 0x53ac;
const CLUSTER = 0x1f43b675;
const TAGS = 0x1254c367;
const TAG = 0x7373;
const TARGETS = 0x63c0;
const SIMPLE_TAG = 0x67c8;
const TAG_NAME = 0x45a3;
const TAG_STRING = 0x4487;
/** TagTrackUID, TagEditionUID, TagChapterUID, TagAttachmentUID: a tag about one part, not the file. */
const TARGET_UIDS = new Set([0x63c5, 0x63c9, 0x63c4, 0x63c6]);

interface Element {
	id: number;
	/** Where the content starts, and its size (null when the size is "unknown", as in live streams). */
	start: number;
	size: number | null;
}

/** One element header from bytes already in memory; null when it does not fit. */
function parseHeader(b: Uint8Array, at: number): (Element & { headerLength: number }) | null {
	const id = vint(b, at, true);
	if (!id || id.value === null) return null;
	const size = vint(b, at + id.length, false);
	if (!size) return null;
	return { id: id.value, start: at + id.length + size.length, size: size.value, headerLength: id.length + size.length };
}

async function headerAt(file: FileReader, offset: number): Promise<Element> {
	const bytes = await file.readUpTo(offset, 12);
	const header = parseHeader(bytes, 0);
	if (!header) {
		throw bytes.length < 12 && offset + 12 > file.size
			? new FileProblem('truncated', 'the file ends in the middle of a Matroska element header')
			: new FileProblem('corrupt', `there is no valid Matroska element at byte ${offset}`);
	}
	return { id: header.id, start: offset + header.headerLength, size: header.size };
}

/** The children of an element whose bytes are in memory. */
function childrenOf(b: Uint8Array, start: number, end: number): Array<Element & { size: number }> {
	const out: Array<Element & { size: number }> = [];
	let at = start;
	while (at < end) {
		if (out.length >= MAX_ELEMENTS) throw new FileProblem('too-large', `a Matroska element holds more than ${MAX_ELEMENTS} children`);
		const h = parseHeader(b, at);
		if (!h || h.size === null || h.start + h.size > end) throw new FileProblem('corrupt', 'a Matroska tag element is malformed');
		out.push({ id: h.id, start: h.start, size: h.size });
		at = h.start + h.size;
	}
	return out;
}

export async function readMatroska(file: FileReader): Promise<{ format: 'webm' | 'mkv'; texts: TextCollector }> {
	const texts = new TextCollector();
	const ebml = await headerAt(file, 0);
	if (ebml.id !== EBML || ebml.size === null) throw new FileProblem('corrupt', 'its EBML header is invalid');
	if (ebml.size > 4096) throw new FileProblem('corrupt', 'its EBML header is implausibly large');
	const header = await file.read(ebml.start, ebml.size, 'the EBML header');
	const docType = childrenOf(header, 0, header.length).find((e) => e.id === DOC_TYPE);
	const format = docType && latin1.decode(header.subarray(docType.start, docType.start + docType.size)) === 'webm' ? 'webm' : 'mkv';
	const segment = await headerAt(file, ebml.start + ebml.size);
	if (segment.id !== SEGMENT) throw new FileProblem('corrupt', 'it has no Matroska segment');
	const segmentEnd = segment.size === null ? file.size : segment.start + segment.size;
	if (segmentEnd > file.size) throw new FileProblem('truncated', 'the Matroska segment runs past the end of the file');
	const tagPositions: number[] = [];
	let offset = segment.start;
	for (let index = 0; offset < segmentEnd; index++) {
		if (index >= MAX_ELEMENTS) throw new FileProblem('too-large', `its segment holds more than ${MAX_ELEMENTS} elements`);
		const element = await headerAt(file, offset);
		if (element.id === CLUSTER && texts.size > 0) break;
		if (element.id === CLUSTER) {
			// Media from here on: go straight to tags the SeekHead lists further on, if any.
			const next = tagPositions.find((at) => at > offset);
			if (next !== undefined) {
				offset = next;
				tagPositions.splice(tagPositions.indexOf(next), 1);
				continue;
			}
		}
		if (element.size === null) break; // a live-stream cluster: no way to skip it
		const end = element.start + element.size;
		if (end > segmentEnd) throw new FileProblem('truncated', 'a Matroska element runs past the end of the file');
		if (element.id === TAGS) {
			if (element.size > MAX_METADATA_BYTES)
				throw new FileProblem('too-large', `its tags are larger than ${formatMiB(MAX_METADATA_BYTES)}`);
			readTags(await file.read(element.start, element.size, 'the Matroska tags'), texts);
		} else if (element.id === SEEK_HEAD && element.size <= 64 * 1024) {
			const seekHead = await file.read(element.start, element.size, 'the Matroska seek head');
			for (const at of tagsPositions(seekHead)) if (segment.start + at < segmentEnd) tagPositions.push(segment.start + at);
		}
		offset = end;
	}
	return { format, texts };
}

/** Where the SeekHead says `Tags` elements are, relative to the segment's content. */
function tagsPositions(b: Uint8Array): number[] {
	const out: number[] = [];
	for (const seek of childrenOf(b, 0, b.length)) {
		if (seek.id !== SEEK) continue;
		let id = 0;
		let position: number | null = null;
		for (const e of childrenOf(b, seek.start, seek.start + seek.size)) {
			const value = () => b.subarray(e.start, e.start + e.size).reduce((n, byte) => n * 256 + byte, 0);
			if (e.id === SEEK_ID && e.size <= 4) id = value();
			else if (e.id === SEEK_POSITION && e.size <= 6) position = value();
		}
		if (id === TAGS && position !== null) out.push(position);
	}
	return out;
}

function readTags(b: Uint8Array, texts: TextCollector): void {
	for (const tag of childrenOf(b, 0, b.length)) {
		if (tag.id !== TAG) continue;
		const parts = childrenOf(b, tag.start, tag.start + tag.size);
		const targets = parts.find((p) => p.id === TARGETS);
		if (targets && childrenOf(b, targets.start, targets.start + targets.size).some((t) => TARGET_UIDS.has(t.id))) continue;
		for (const part of parts) if (part.id === SIMPLE_TAG) readSimpleTag(b, part, texts, 1);
	}
}

function readSimpleTag(b: Uint8Array, simple: Element & { size: number }, texts: TextCollector, depth: number): void {
	if (depth > MAX_DEPTH) throw new FileProblem('corrupt', `its tags are nested more than ${MAX_DEPTH} levels deep`);
	let name: string | undefined;
	let value: string | undefined;
	for (const e of childrenOf(b, simple.start, simple.start + simple.size)) {
		const text = () => utf8.decode(b.subarray(e.start, e.start + e.size));
		if (e.id === TAG_NAME) name = text();
		else if (e.id === TAG_STRING) value = text();
		else if (e.id === SIMPLE_TAG) readSimpleTag(b, e, texts, depth + 1);
	}
	if (name !== undefined && value !== undefined) texts.add(name.toLowerCase(), value);
}
