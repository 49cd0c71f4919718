/**
 * WebP (SaveAnimatedWEBP): walks the RIFF chunks by their sizes and reads only `EXIF`, where ComfyUI
 * stores `prompt:<json>` in tag 0x0110 (Model) and `<key>:<json>` for `workflow` and the other keys
 * counting down from 0x010F (Make).
 */
import { ascii, u16be, u16le, u32be, u32le, utf8 } from './binary';
import type { FileReader } from './byte-source';
import { FileProblem, quoted } from './file-problem';
import { formatMiB, MAX_ELEMENTS, MAX_METADATA_BYTES } from './limits';
import { TextCollector } from './texts';

export async function readWebp(file: FileReader): Promise<TextCollector> {
	const texts = new TextCollector();
	const head = await file.read(0, 12, 'the RIFF header');
	const riffEnd = 8 + u32le(head, 4);
	if (riffEnd > file.size) throw new FileProblem('truncated', `the WebP says it is ${riffEnd} bytes long but the file has ${file.size}`);
	let offset = 12;
	for (let index = 0; offset + 8 <= riffEnd; index++) {
		if (index >= MAX_ELEMENTS) throw new FileProblem('too-large', `it has more than ${MAX_ELEMENTS} WebP chunks`);
		const header = await file.read(offset, 8, 'a WebP chunk');
		const type = ascii(header, 0, 4);
		const length = u32le(header, 4);
		const end = offset + 8 + length + (length & 1);
		if (offset + 8 + length > riffEnd) throw new FileProblem('truncated', `the WebP chunk ${quoted(type)} runs past the end of the file`);
		if (type === 'EXIF') {
			if (length > MAX_METADATA_BYTES) throw new FileProblem('too-large', `its EXIF data is larger than ${formatMiB(MAX_METADATA_BYTES)}`);
			readExifStrings(await file.read(offset + 8, length, 'the EXIF chunk'), texts);
		}
		offset = end;
	}
	return texts;
}

const ASCII = 2;
const UNDEFINED = 7;
const BYTE = 1;
/** Tags at or below Model (0x0110) whose text reads `key:value` are ComfyUI's. */
const HIGHEST_TAG = 0x0110;
const KEY = /^([A-Za-z_][\w.-]{0,63}):/;

/** The `key:value` strings of the first IFD of a TIFF/EXIF block. */
export function readExifStrings(exif: Uint8Array, texts: TextCollector): void {
	const tiff = exif.length >= 6 && ascii(exif, 0, 6) === 'Exif\0\0' ? exif.subarray(6) : exif;
	if (tiff.length < 8) throw new FileProblem('corrupt', 'its EXIF data is too short');
	const order = ascii(tiff, 0, 2);
	if (order !== 'II' && order !== 'MM') throw new FileProblem('corrupt', 'its EXIF data has no byte order mark');
	const le = order === 'II';
	const u16 = (at: number) => (le ? u16le(tiff, at) : u16be(tiff, at));
	const u32 = (at: number) => (le ? u32le(tiff, at) : u32be(tiff, at));
	if (u16(2) !== 42) throw new FileProblem('corrupt', 'its EXIF data is not TIFF');
	const ifd = u32(4);
	if (ifd + 2 > tiff.length) throw new FileProblem('corrupt', 'its EXIF directory lies outside the EXIF data');
	const count = u16(ifd);
	if (ifd + 2 + count * 12 > tiff.length) throw new FileProblem('corrupt', 'its EXIF directory runs past the EXIF data');
	for (let i = 0; i < count; i++) {
		const entry = ifd + 2 + i * 12;
		const tag = u16(entry);
		const type = u16(entry + 2);
		const length = u32(entry + 4);
		if (tag > HIGHEST_TAG || (type !== ASCII && type !== UNDEFINED && type !== BYTE)) continue;
		const start = length <= 4 ? entry + 8 : u32(entry + 8);
		if (start + length > tiff.length) throw new FileProblem('corrupt', `EXIF tag 0x${tag.toString(16)} points outside the EXIF data`);
		let text = utf8.decode(tiff.subarray(start, start + length));
		while (text.endsWith('\0')) text = text.slice(0, -1);
		const key = KEY.exec(text);
		if (key) texts.add(key[1]!, text.slice(key[0].length));
	}
}
