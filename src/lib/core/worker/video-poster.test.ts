import { describe, expect, it } from 'vitest';
import { videoContainer } from './video-poster';

const bytes = (...parts: Array<string | number[]>) =>
	Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('the container a video output is in, by its first bytes', () => {
	it.each([
		{ what: 'WebM / Matroska (EBML)', head: bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f]), container: 'webm' },
		{ what: 'MP4', head: bytes([0, 0, 0, 0x20], 'ftypisom'), container: 'mp4' },
		{ what: 'QuickTime', head: bytes([0, 0, 0, 0x14], 'ftypqt  '), container: 'mp4' },
		{ what: 'an animated WebP (SaveAnimatedWEBP)', head: bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8X'), container: 'picture' },
		{ what: 'a GIF', head: bytes('GIF89a'), container: 'picture' },
		{ what: 'an APNG', head: bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]), container: 'picture' },
		{ what: 'a RIFF that is not WebP (a WAV)', head: bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '), container: 'unknown' },
		{ what: 'nothing', head: new Uint8Array(0), container: 'unknown' }
	])('$what: $container', ({ head, container }) => {
		expect(videoContainer(head)).toBe(container);
	});
});
