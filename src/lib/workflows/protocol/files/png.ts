/**
 * PNG and APNG: the text chunks ComfyUI's SaveImage writes (`tEXt`, before the image data), the
 * private `comf` chunks SaveAnimatedPNG writes after it, and the `zTXt` / `iTXt` forms other tools
 * write when they re-save an image. Image data chunks are skipped by their length, never read.
 */
import { ascii, latin1, u32be, utf8 } from './binary';
import type { FileReader } from './byte-source';
import { crc32 } from '../../../core/protocol/crc32';
import { FileProblem, quoted } from './file-problem';
import { inflateCapped } from './inflate';
import { formatMiB, MAX_ELEMENTS, MAX_INFLATED_TEXT_BYTES, MAX_METADATA_BYTES } from './limits';
import { TextCollector } from './texts';

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const TEXT_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt', 'comf']);

export async function readPng(file: FileReader, signal: AbortSignal): Promise<{ format: 'png' | 'apng'; texts: TextCollector }> {
	const texts = new TextCollector();
	let animated = false;
	let offset = 8;
	for (let index = 0; ; index++) {
		if (index >= MAX_ELEMENTS) throw new FileProblem('too-large', `it has more than ${MAX_ELEMENTS} PNG chunks`);
		if (offset + 12 > file.size) throw new FileProblem('truncated', 'the PNG ends before its last chunk (IEND)');
		const head = await file.read(offset, 8, 'a PNG chunk');
		const length = u32be(head, 0);
		const type = ascii(head, 4, 4);
		if (length > 0x7fffffff || !/^[A-Za-z]{4}$/.test(type))
			throw new FileProblem('corrupt', `a PNG chunk header at byte ${offset} is invalid`);
		if (index === 0 && type !== 'IHDR') throw new FileProblem('corrupt', 'the PNG does not start with its header chunk (IHDR)');
		const end = offset + 12 + length;
		if (end > file.size) throw new FileProblem('truncated', `the PNG chunk ${quoted(type)} runs past the end of the file`);
		if (type === 'acTL') animated = true;
		if (TEXT_CHUNKS.has(type)) {
			if (length > MAX_METADATA_BYTES)
				throw new FileProblem('too-large', `its ${quoted(type)} chunk is larger than ${formatMiB(MAX_METADATA_BYTES)}`);
			const body = await file.read(offset + 4, length + 8, `the PNG chunk ${quoted(type)}`);
			const data = body.subarray(4, 4 + length);
			if (crc32(body.subarray(0, 4 + length)) !== u32be(body, 4 + length)) {
				throw new FileProblem('corrupt', `its ${quoted(type)} text chunk is damaged (checksum mismatch)`);
			}
			await readTextChunk(type, data, texts, signal);
		}
		if (type === 'IEND') break;
		offset = end;
	}
	return { format: animated ? 'apng' : 'png', texts };
}

async function readTextChunk(type: string, data: Uint8Array, texts: TextCollector, signal: AbortSignal): Promise<void> {
	const keyEnd = data.indexOf(0);
	if (keyEnd <= 0 || keyEnd > 79) throw new FileProblem('corrupt', `a ${quoted(type)} chunk has no valid keyword`);
	const key = latin1.decode(data.subarray(0, keyEnd));
	if (type === 'tEXt' || type === 'comf') {
		texts.add(key, latin1.decode(data.subarray(keyEnd + 1)));
	} else if (type === 'zTXt') {
		if (data[keyEnd + 1] !== 0) throw new FileProblem('corrupt', `the ${quoted(key)} zTXt chunk uses an unknown compression method`);
		texts.add(key, latin1.decode(await inflateText(key, data.subarray(keyEnd + 2), signal)));
	} else {
		const compressed = data[keyEnd + 1];
		const method = data[keyEnd + 2];
		const languageEnd = data.indexOf(0, keyEnd + 3);
		const translatedEnd = languageEnd < 0 ? -1 : data.indexOf(0, languageEnd + 1);
		if (translatedEnd < 0 || (compressed !== 0 && compressed !== 1))
			throw new FileProblem('corrupt', `the ${quoted(key)} iTXt chunk is malformed`);
		const text = data.subarray(translatedEnd + 1);
		if (compressed === 0) texts.add(key, utf8.decode(text));
		else if (method !== 0) throw new FileProblem('corrupt', `the ${quoted(key)} iTXt chunk uses an unknown compression method`);
		else texts.add(key, utf8.decode(await inflateText(key, text, signal)));
	}
}

async function inflateText(key: string, compressed: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
	const result = await inflateCapped(compressed, MAX_INFLATED_TEXT_BYTES, signal);
	if (result.ok) return result.bytes;
	if (result.kind === 'too-large') {
		throw new FileProblem('too-large', `its compressed ${quoted(key)} text expands to more than ${formatMiB(MAX_INFLATED_TEXT_BYTES)}`);
	}
	if (result.kind === 'aborted') throw new FileProblem('aborted', 'reading was cancelled');
	throw new FileProblem('corrupt', `its compressed ${quoted(key)} text cannot be decompressed`);
}
