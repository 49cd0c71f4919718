/** FLAC: walks the metadata blocks after `fLaC` and reads the VORBIS_COMMENT block; audio frames are never read. */
import type { FileReader } from './byte-source';
import { FileProblem } from './file-problem';
import { formatMiB, MAX_ELEMENTS, MAX_METADATA_BYTES } from './limits';
import { TextCollector } from './texts';
import { readVorbisComment } from './vorbis-comment';

const VORBIS_COMMENT = 4;
const INVALID = 127;

export async function readFlac(file: FileReader, start = 4): Promise<TextCollector> {
	const texts = new TextCollector();
	let offset = start;
	for (let index = 0; ; index++) {
		if (index >= MAX_ELEMENTS) throw new FileProblem('too-large', `it has more than ${MAX_ELEMENTS} FLAC metadata blocks`);
		const head = await file.read(offset, 4, 'a FLAC metadata block');
		const last = (head[0]! & 0x80) !== 0;
		const type = head[0]! & 0x7f;
		const length = (head[1]! << 16) | (head[2]! << 8) | head[3]!;
		if (type === INVALID) throw new FileProblem('corrupt', 'a FLAC metadata block has an invalid type');
		if (offset + 4 + length > file.size) throw new FileProblem('truncated', 'a FLAC metadata block runs past the end of the file');
		if (type === VORBIS_COMMENT) {
			if (length > MAX_METADATA_BYTES)
				throw new FileProblem('too-large', `its comment block is larger than ${formatMiB(MAX_METADATA_BYTES)}`);
			readVorbisComment(await file.read(offset + 4, length, 'the FLAC comment block'), texts);
		}
		offset += 4 + length;
		if (last) return texts;
	}
}
