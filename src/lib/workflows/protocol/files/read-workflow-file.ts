/**
 * Reads the workflow texts out of any file ComfyUI's save nodes write: PNG (tEXt/zTXt/iTXt), APNG
 * (`comf` chunks), animated WebP (EXIF), FLAC, MP3 (ID3 TXXX), Opus, MP4 (keys + ilst) and WebM.
 * The format comes from the bytes; only headers and metadata are read, within the limits in
 * `limits.ts`. Never throws: every failure is a typed error whose message names the file and says
 * what to do.
 */
import { blobSource, FileReader, type ByteSource } from './byte-source';
import { readId3 } from './id3';
import { readFlac } from './flac';
import { FileProblem, type FileProblemKind } from './file-problem';
import { formatMiB, MAX_FILE_READ_BYTES } from './limits';
import { readMatroska } from './matroska';
import { readMp4 } from './mp4';
import { readOgg } from './ogg';
import { readPng } from './png';
import { sniff } from './sniff';
import { ownText, type FileTexts, type TextCollector } from './texts';
import { readWebp } from './webp';

export type { FileTexts } from './texts';
export type { ByteSource } from './byte-source';
export { blobSource, bytesSource } from './byte-source';

export type WorkflowFileFormat = 'png' | 'apng' | 'webp' | 'flac' | 'mp3' | 'opus' | 'ogg' | 'mp4' | 'webm' | 'mkv';

export type WorkflowFileErrorKind = FileProblemKind;

export type WorkflowFileResult =
	| { ok: true; format: WorkflowFileFormat; texts: FileTexts; bytesRead: number }
	| { ok: false; kind: WorkflowFileErrorKind; message: string; bytesRead: number };

export interface WorkflowFileInput {
	/** The file's name, for messages ("photo.png"); a `File`'s own name is used when omitted. */
	name?: string;
	source: Blob | ByteSource;
	/** Other text keys that make a file worth reading, beside a workflow (`runboard_sweep`: a model sweep's grid picture carries only that). */
	alsoKeys?: readonly string[];
}

const FORMAT_NAMES: Record<WorkflowFileFormat, string> = {
	png: 'PNG image',
	apng: 'animated PNG',
	webp: 'WebP image',
	flac: 'FLAC audio file',
	mp3: 'MP3 audio file',
	opus: 'Opus audio file',
	ogg: 'Ogg audio file',
	mp4: 'MP4 video',
	webm: 'WebM video',
	mkv: 'Matroska video'
};

export async function readWorkflowFile(input: WorkflowFileInput, signal: AbortSignal): Promise<WorkflowFileResult> {
	const isBlob = typeof Blob !== 'undefined' && input.source instanceof Blob;
	const source = isBlob ? blobSource(input.source as Blob) : (input.source as ByteSource);
	const name = input.name ?? (isBlob && 'name' in input.source && typeof input.source.name === 'string' ? input.source.name : 'The file');
	const file = new FileReader(source, signal);
	try {
		const { format, texts } = await readFormat(file, signal);
		const result = texts.result();
		if (!['prompt', 'workflow', ...(input.alsoKeys ?? [])].some((key) => ownText(result, key) !== undefined)) {
			return fail(file, name, 'no-workflow', FORMAT_NAMES[format]);
		}
		return { ok: true, format, texts: result, bytesRead: file.bytesRead };
	} catch (error) {
		if (error instanceof FileProblem) return fail(file, name, error.kind, error.detail);
		// A bug in a reader, not a property of the file: say so rather than blame the file.
		const reason = error instanceof Error ? error.message : String(error);
		return fail(file, name, 'corrupt', `the reader met an unexpected error (${reason})`);
	}
}

async function readFormat(file: FileReader, signal: AbortSignal): Promise<{ format: WorkflowFileFormat; texts: TextCollector }> {
	if (file.size === 0) throw new FileProblem('truncated', 'the file is empty');
	const sniffed = sniff(await file.readUpTo(0, 16));
	switch (sniffed.container) {
		case 'png':
			return readPng(file, signal);
		case 'webp':
			return { format: 'webp', texts: await readWebp(file) };
		case 'flac':
			return { format: 'flac', texts: await readFlac(file) };
		case 'id3':
			return readAfterId3(file);
		case 'mpeg-audio':
			throw new FileProblem('no-workflow', FORMAT_NAMES.mp3);
		case 'ogg':
			return readOgg(file);
		case 'mp4':
			return { format: 'mp4', texts: await readMp4(file) };
		case 'matroska':
			return readMatroska(file);
		case null:
			throw new FileProblem('unsupported', sniffed.looksLike ?? 'its contents are not a format Runboard knows');
	}
}

/** An ID3 tag starts MP3 files, and sometimes FLAC files (then the FLAC blocks follow it). */
async function readAfterId3(file: FileReader): Promise<{ format: WorkflowFileFormat; texts: TextCollector }> {
	const id3 = await readId3(file);
	const next = await file.readUpTo(id3.end, 4);
	if (next.length === 4 && String.fromCharCode(...next) === 'fLaC') return { format: 'flac', texts: await readFlac(file, id3.end + 4) };
	return { format: 'mp3', texts: id3.texts };
}

const SAVED_BY_COMFYUI = 'a PNG, WebP, FLAC, MP3, Opus, MP4 or WebM file saved by ComfyUI, or a workflow JSON file';

function fail(file: FileReader, name: string, kind: FileProblemKind, detail: string): WorkflowFileResult {
	const quoted = `"${name}"`;
	const messages: Record<FileProblemKind, string> = {
		truncated: `${quoted} is cut off: ${detail}. It was probably not completely downloaded or copied; get the file again from where it was saved.`,
		corrupt: `${quoted} cannot be read: ${detail}. If it is a copy, try the original file, or save the workflow again from ComfyUI.`,
		'too-large': `${quoted} is too large to read safely: ${detail}. Runboard reads at most ${formatMiB(MAX_FILE_READ_BYTES)} of a file's metadata; export the workflow as JSON from ComfyUI and import that instead.`,
		'no-workflow': `${quoted} is ${article(detail)} ${detail} but carries no ComfyUI workflow. ComfyUI's save nodes embed it unless the server runs with --disable-metadata; open ${SAVED_BY_COMFYUI} instead.`,
		unsupported: `${quoted} is not a file a workflow can be read from (${detail}). Open ${SAVED_BY_COMFYUI}.`,
		aborted: `Reading ${quoted} was cancelled.`
	};
	return { ok: false, kind, message: messages[kind], bytesRead: file.bytesRead };
}

function article(noun: string): string {
	return /^[AEHILMNORSX][A-Z0-9]/.test(noun) || /^[aeiou]/i.test(noun) ? 'an' : 'a';
}
