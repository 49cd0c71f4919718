/**
 * PNG `tEXt` chunks, written the way ComfyUI's SaveImage writes its metadata: `prompt` holds the
 * API-format workflow and `workflow` the editor graph, each as ASCII JSON (Python's json.dumps
 * escapes non-ASCII, so the Latin-1 text chunk stays lossless).
 */
import { crc32 } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** JSON.stringify with every non-ASCII character escaped, as Python's json.dumps does by default. */
export function asciiJson(value: unknown): string {
	return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function chunk(type: string, body: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(body.length, 0);
	head.write(type, 4, 'latin1');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])) >>> 0, 0);
	return Buffer.concat([head, body, crc]);
}

/** Inserts `tEXt` chunks right after IHDR. */
export function addTextChunks(png: Buffer, entries: Array<[string, string]>): Buffer {
	if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
	const ihdrEnd = 8 + 8 + png.readUInt32BE(8) + 4;
	const chunks = entries.map(([key, text]) =>
		chunk('tEXt', Buffer.concat([Buffer.from(key, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]))
	);
	return Buffer.concat([png.subarray(0, ihdrEnd), ...chunks, png.subarray(ihdrEnd)]);
}

/** Reads every `tEXt` chunk (tests and tools use this to check what SaveImage wrote). */
export function readTextChunks(png: Uint8Array): Record<string, string> {
	const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
	const out: Record<string, string> = {};
	let at = 8;
	while (at + 12 <= bytes.length) {
		const length = bytes.readUInt32BE(at);
		const type = bytes.toString('latin1', at + 4, at + 8);
		if (type === 'tEXt') {
			const body = bytes.subarray(at + 8, at + 8 + length);
			const nul = body.indexOf(0);
			if (nul > 0) out[body.toString('latin1', 0, nul)] = body.toString('latin1', nul + 1);
		}
		at += 12 + length;
	}
	return out;
}
