/**
 * Reads the text chunks of a PNG. ComfyUI writes the API-format workflow in a `prompt` chunk and
 * the UI-format one in `workflow` (tEXt, Latin-1); iTXt (UTF-8, optionally compressed) is read too.
 */

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export type PngTextResult = { ok: true; chunks: Record<string, string> } | { ok: false; message: string };

export function isPng(bytes: Uint8Array): boolean {
	return SIGNATURE.every((b, i) => bytes[i] === b);
}

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');

/** `inflate` decompresses zlib data (DecompressionStream in browsers); omitted chunks are skipped. */
export async function readPngText(bytes: Uint8Array, inflate?: (data: Uint8Array) => Promise<Uint8Array>): Promise<PngTextResult> {
	if (!isPng(bytes)) return { ok: false, message: 'This file is not a PNG image.' };
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const chunks: Record<string, string> = {};
	let offset = 8;
	while (offset + 8 <= bytes.length) {
		const length = view.getUint32(offset);
		const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
		const dataStart = offset + 8;
		const dataEnd = dataStart + length;
		if (dataEnd + 4 > bytes.length) return { ok: false, message: 'The PNG file is cut off (a chunk runs past the end).' };
		const data = bytes.subarray(dataStart, dataEnd);
		if (type === 'tEXt') {
			const sep = data.indexOf(0);
			if (sep > 0) chunks[latin1.decode(data.subarray(0, sep))] = latin1.decode(data.subarray(sep + 1));
		} else if (type === 'iTXt') {
			const keyEnd = data.indexOf(0);
			if (keyEnd > 0) {
				const key = latin1.decode(data.subarray(0, keyEnd));
				const compressed = data[keyEnd + 1] === 1;
				let p = keyEnd + 3;
				const langEnd = data.indexOf(0, p);
				const transEnd = langEnd >= 0 ? data.indexOf(0, langEnd + 1) : -1;
				if (transEnd >= 0) {
					p = transEnd + 1;
					const text = data.subarray(p);
					if (!compressed) chunks[key] = utf8.decode(text);
					else if (inflate) chunks[key] = utf8.decode(await inflate(text));
				}
			}
		} else if (type === 'zTXt' && inflate) {
			const sep = data.indexOf(0);
			if (sep > 0) chunks[latin1.decode(data.subarray(0, sep))] = latin1.decode(await inflate(data.subarray(sep + 2)));
		} else if (type === 'IEND') {
			break;
		}
		offset = dataEnd + 4;
	}
	return { ok: true, chunks };
}
