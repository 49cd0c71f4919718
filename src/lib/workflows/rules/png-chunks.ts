/**
 * The text chunks of a PNG held in memory, for callers that have the bytes already. The reader is
 * `src/lib/files/` (bounded reads, capped decompression, typed errors); files of any kind should go
 * through its `readWorkflowFile`.
 */
import { bytesSource, FileReader } from '../protocol/files/byte-source';
import { FileProblem } from '../protocol/files/file-problem';
import { PNG_SIGNATURE, readPng } from '../protocol/files/png';

export type PngTextResult = { ok: true; chunks: Record<string, string> } | { ok: false; message: string };

export function isPng(bytes: Uint8Array): boolean {
	return PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

/**
 * `tEXt`, `zTXt`, `iTXt` and APNG `comf` chunks, by keyword (a null-prototype object). The second
 * parameter is accepted for older callers and ignored: compressed text is always inflated by the
 * capped stream in `files/inflate.ts`.
 */
export async function readPngText(
	bytes: Uint8Array,
	_inflate?: (data: Uint8Array) => Promise<Uint8Array>,
	signal = new AbortController().signal
): Promise<PngTextResult> {
	if (!isPng(bytes)) return { ok: false, message: 'This file is not a PNG image.' };
	try {
		const { texts } = await readPng(new FileReader(bytesSource(bytes), signal), signal);
		return { ok: true, chunks: texts.result() as Record<string, string> };
	} catch (error) {
		if (!(error instanceof FileProblem)) throw error;
		const what = error.kind === 'truncated' ? 'The PNG file is cut off' : 'The PNG file cannot be read';
		return { ok: false, message: `${what}: ${error.detail}.` };
	}
}
