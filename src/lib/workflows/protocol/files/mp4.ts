/**
 * MP4 / QuickTime (SaveVideo through PyAV with `movflags=use_metadata_tags`): the metadata sits in
 * `moov/udta/meta` as a `keys` box (names) and an `ilst` box (values, by 1-based key index). `moov`
 * is often at the end of the file, after the media data: boxes are walked by their headers, so only
 * the headers and the few metadata boxes are read, never `mdat`.
 */
import { ascii, u32be, utf8 } from './binary';
import type { FileReader } from './byte-source';
import { FileProblem, quoted } from './file-problem';
import { formatMiB, MAX_ELEMENTS, MAX_METADATA_BYTES } from './limits';
import { TextCollector } from './texts';

interface Box {
	type: string;
	/** Where the box's content starts and ends (end is past its last byte). */
	start: number;
	end: number;
}

/** The child boxes of [start, end), by their headers only. */
async function children(file: FileReader, start: number, end: number, parent: string): Promise<Box[]> {
	const boxes: Box[] = [];
	let offset = start;
	while (offset + 8 <= end) {
		if (boxes.length >= MAX_ELEMENTS) throw new FileProblem('too-large', `"${parent}" holds more than ${MAX_ELEMENTS} boxes`);
		const head = await file.read(offset, 8, 'an MP4 box header');
		let size = u32be(head, 0);
		const type = ascii(head, 4, 4);
		let headerLength = 8;
		if (size === 1) {
			const large = await file.read(offset + 8, 8, 'an MP4 box header');
			const high = u32be(large, 0);
			if (high >= 1 << 21) throw new FileProblem('corrupt', `the MP4 box ${quoted(type)} claims an impossible size`);
			size = high * 2 ** 32 + u32be(large, 4);
			headerLength = 16;
		} else if (size === 0) {
			size = end - offset; // to the end of the file (only allowed at the top level)
		}
		if (size < headerLength) throw new FileProblem('corrupt', `the MP4 box ${quoted(type)} at byte ${offset} has an invalid size`);
		if (offset + size > end) {
			throw end === file.size && offset + size > file.size
				? new FileProblem('truncated', `the MP4 box ${quoted(type)} runs past the end of the file`)
				: new FileProblem('corrupt', `the MP4 box ${quoted(type)} runs past the box that holds it`);
		}
		boxes.push({ type, start: offset + headerLength, end: offset + size });
		offset += size;
	}
	if (offset !== end && end === file.size) throw new FileProblem('truncated', 'the MP4 ends in the middle of a box header');
	return boxes;
}

export async function readMp4(file: FileReader): Promise<TextCollector> {
	const texts = new TextCollector();
	const top = await children(file, 0, file.size, 'the file');
	const moov = top.find((b) => b.type === 'moov');
	if (!moov) return texts;
	const moovChildren = await children(file, moov.start, moov.end, 'moov');
	const metas = moovChildren.filter((b) => b.type === 'meta');
	for (const udta of moovChildren.filter((b) => b.type === 'udta')) {
		metas.push(...(await children(file, udta.start, udta.end, 'udta')).filter((b) => b.type === 'meta'));
	}
	for (const meta of metas) await readMeta(file, meta, texts);
	return texts;
}

/** ISO `meta` is a full box (4 bytes of version and flags first); QuickTime's is not. */
async function readMeta(file: FileReader, meta: Box, texts: TextCollector): Promise<void> {
	const peek = await file.read(meta.start, Math.min(12, meta.end - meta.start), 'the MP4 meta box');
	const fullBox = !(peek.length >= 8 && ascii(peek, 4, 4) === 'hdlr');
	const boxes = await children(file, meta.start + (fullBox ? 4 : 0), meta.end, 'meta');
	const keysBox = boxes.find((b) => b.type === 'keys');
	const ilst = boxes.find((b) => b.type === 'ilst');
	if (!ilst) return;
	const keys = keysBox ? readKeys(await readBox(file, keysBox)) : [];
	const items = await readBox(file, ilst);
	let at = 0;
	for (let index = 0; at + 8 <= items.length; index++) {
		if (index >= MAX_ELEMENTS) throw new FileProblem('too-large', `its metadata list has more than ${MAX_ELEMENTS} items`);
		const size = u32be(items, at);
		if (size < 8 || at + size > items.length) throw new FileProblem('corrupt', 'an MP4 metadata item has an invalid size');
		const item = items.subarray(at, at + size);
		const key = keysBox ? keys[u32be(item, 4) - 1] : ITEM_NAMES.get(ascii(item, 4, 4));
		const value = dataText(item.subarray(8));
		if (key !== undefined && value !== undefined) texts.add(key, value);
		at += size;
	}
}

/** Classic iTunes-style items that carry text ffmpeg maps to these names. */
const ITEM_NAMES = new Map([
	['\u00a9cmt', 'comment'],
	['desc', 'description'],
	['\u00a9nam', 'title']
]);

async function readBox(file: FileReader, box: Box): Promise<Uint8Array> {
	const length = box.end - box.start;
	if (length > MAX_METADATA_BYTES) throw new FileProblem('too-large', `its MP4 metadata is larger than ${formatMiB(MAX_METADATA_BYTES)}`);
	return file.read(box.start, length, 'the MP4 metadata');
}

/** `keys`: version/flags, count, then (size, namespace, name) entries. */
function readKeys(data: Uint8Array): string[] {
	if (data.length < 8) throw new FileProblem('corrupt', 'the MP4 keys box is too short');
	const count = u32be(data, 4);
	if (count > MAX_ELEMENTS) throw new FileProblem('too-large', `it has more than ${MAX_ELEMENTS} metadata keys`);
	const keys: string[] = [];
	let at = 8;
	for (let i = 0; i < count; i++) {
		if (at + 8 > data.length) throw new FileProblem('corrupt', 'the MP4 keys box ends in the middle of a key');
		const size = u32be(data, at);
		if (size < 8 || at + size > data.length) throw new FileProblem('corrupt', 'an MP4 metadata key has an invalid size');
		keys.push(utf8.decode(data.subarray(at + 8, at + size)));
		at += size;
	}
	return keys;
}

/** The text of the first `data` box of an item (type 1 = UTF-8, 2 = UTF-16BE); other types are not text. */
function dataText(content: Uint8Array): string | undefined {
	if (content.length < 16 || ascii(content, 4, 4) !== 'data') return undefined;
	const size = Math.min(u32be(content, 0), content.length);
	if (size < 16) return undefined;
	const type = u32be(content, 8) & 0xffffff;
	const value = content.subarray(16, size);
	if (type === 1) return utf8.decode(value);
	if (type === 2) return new TextDecoder('utf-16be').decode(value);
	return undefined;
}
