/**
 * Text chunks written into a PNG: `tEXt` chunks (Latin-1 keyword, text) placed right after the
 * header, where ComfyUI's SaveImage puts its `prompt` and `workflow`, so any reader of those finds them.
 */
import { crc32 } from '../../core/protocol/crc32';

const IHDR_END = 8 + 8 + 13 + 4;

function chunk(type: string, data: Uint8Array): Uint8Array {
	const out = new Uint8Array(12 + data.length);
	const view = new DataView(out.buffer);
	view.setUint32(0, data.length);
	for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
	out.set(data, 8);
	view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
	return out;
}

/** `tEXt` holds Latin-1: JSON is written with every other character escaped, so it stays JSON. */
function latin1Json(text: string): Uint8Array {
	const safe = text.replace(/[^\x20-\x7e\n]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
	return Uint8Array.from(safe, (c) => c.charCodeAt(0));
}

export function withTextChunks(png: Uint8Array, texts: Record<string, string>): Uint8Array {
	const chunks = Object.entries(texts).map(([keyword, text]) => {
		const body = latin1Json(text);
		const data = new Uint8Array(keyword.length + 1 + body.length);
		for (let i = 0; i < keyword.length; i++) data[i] = keyword.charCodeAt(i);
		data.set(body, keyword.length + 1);
		return chunk('tEXt', data);
	});
	const size = chunks.reduce((n, c) => n + c.length, png.length);
	const out = new Uint8Array(size);
	out.set(png.subarray(0, IHDR_END), 0);
	let at = IHDR_END;
	for (const c of chunks) {
		out.set(c, at);
		at += c.length;
	}
	out.set(png.subarray(IHDR_END), at);
	return out;
}
