/** Small helpers for reading numbers and strings out of untrusted bytes (every caller checks bounds first). */

export const latin1 = new TextDecoder('latin1');
export const utf8 = new TextDecoder('utf-8');

export function u32be(b: Uint8Array, at: number): number {
	return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

export function u32le(b: Uint8Array, at: number): number {
	return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

export function u16be(b: Uint8Array, at: number): number {
	return (b[at]! << 8) | b[at + 1]!;
}

export function u16le(b: Uint8Array, at: number): number {
	return b[at]! | (b[at + 1]! << 8);
}

export function ascii(b: Uint8Array, at: number, length: number): string {
	return latin1.decode(b.subarray(at, at + length));
}

export function startsWith(b: Uint8Array, text: string, at = 0): boolean {
	if (at + text.length > b.length) return false;
	for (let i = 0; i < text.length; i++) if (b[at + i] !== text.charCodeAt(i)) return false;
	return true;
}
