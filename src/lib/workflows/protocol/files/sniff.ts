/** Which reader a file needs, from its first bytes (never from its name or MIME type). */
import { startsWith } from './binary';
import { PNG_SIGNATURE } from './png';

export type Container = 'png' | 'webp' | 'flac' | 'id3' | 'mpeg-audio' | 'ogg' | 'mp4' | 'matroska';

export type Sniffed = { container: Container } | { container: null; looksLike: string | null };

export function sniff(head: Uint8Array): Sniffed {
	if (PNG_SIGNATURE.every((b, i) => head[i] === b)) return { container: 'png' };
	if (startsWith(head, 'RIFF') && startsWith(head, 'WEBP', 8)) return { container: 'webp' };
	if (startsWith(head, 'fLaC')) return { container: 'flac' };
	if (startsWith(head, 'ID3')) return { container: 'id3' };
	if (startsWith(head, 'OggS')) return { container: 'ogg' };
	if (startsWith(head, 'ftyp', 4)) return { container: 'mp4' };
	if (startsWith(head, '\x1a\x45\xdf\xa3')) return { container: 'matroska' };
	if (head[0] === 0xff && (head[1]! & 0xe0) === 0xe0 && head[1] !== 0xff && !startsWith(head, '\xff\xd8\xff'))
		return { container: 'mpeg-audio' };
	return { container: null, looksLike: describe(head) };
}

function describe(head: Uint8Array): string | null {
	if (startsWith(head, '\xff\xd8\xff')) return 'a JPEG image';
	if (startsWith(head, 'GIF8')) return 'a GIF image';
	if (startsWith(head, 'RIFF') && startsWith(head, 'WAVE', 8)) return 'a WAV file';
	if (startsWith(head, 'PK\x03\x04')) return 'a ZIP archive';
	if (startsWith(head, '%PDF')) return 'a PDF document';
	const first = head.find((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09 && b !== 0xef && b !== 0xbb && b !== 0xbf);
	if (first === 0x7b || first === 0x5b) return 'JSON text';
	return null;
}
