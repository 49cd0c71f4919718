/**
 * Vorbis comments (FLAC's VORBIS_COMMENT block, Opus's OpusTags): `KEY=value` pairs, where ffmpeg
 * puts the container metadata ComfyUI's audio saver sets. Names are case-insensitive, so they are
 * lower-cased (`PROMPT` and `prompt` are the same key).
 */
import { u32le, utf8 } from './binary';
import { FileProblem } from './file-problem';
import { MAX_ELEMENTS } from './limits';
import type { TextCollector } from './texts';

export function readVorbisComment(data: Uint8Array, texts: TextCollector): void {
	if (data.length < 8) throw new FileProblem('corrupt', 'its comment block is too short');
	let at = 4 + u32le(data, 0);
	if (at + 4 > data.length) throw new FileProblem('corrupt', 'its comment block is malformed');
	const count = u32le(data, at);
	at += 4;
	if (count > MAX_ELEMENTS) throw new FileProblem('too-large', `it has more than ${MAX_ELEMENTS} comments`);
	for (let i = 0; i < count; i++) {
		if (at + 4 > data.length) throw new FileProblem('corrupt', 'its comment block ends in the middle of a comment');
		const length = u32le(data, at);
		at += 4;
		if (at + length > data.length) throw new FileProblem('corrupt', 'a comment runs past its block');
		const comment = utf8.decode(data.subarray(at, at + length));
		at += length;
		const eq = comment.indexOf('=');
		if (eq > 0) texts.add(comment.slice(0, eq).toLowerCase(), comment.slice(eq + 1));
	}
}
