/** CRC-32 (ISO 3309, as PNG uses), to tell a damaged chunk from a valid one. */
const TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	TABLE[n] = c >>> 0;
}

export function crc32(...parts: Uint8Array[]): number {
	let crc = 0xffffffff;
	for (const part of parts) for (const byte of part) crc = TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}
