/** Test helpers: the fixture files of tests/fixtures/workflow-files and small PNG builders. */
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { crc32 } from '../../../core/protocol/crc32';
import { bytesSource, readWorkflowFile, type ByteSource, type WorkflowFileResult } from './read-workflow-file';

const DIR = new URL('../../../../../tests/fixtures/workflow-files/', import.meta.url);

export function fixture(name: string): Uint8Array {
	return new Uint8Array(readFileSync(new URL(name, DIR)));
}

export const API_WORKFLOW: unknown = JSON.parse(new TextDecoder().decode(fixture('api-workflow.json')));
export const UI_WORKFLOW: unknown = JSON.parse(new TextDecoder().decode(fixture('ui-workflow.json')));

/** Every binary fixture and the format the reader should name. */
export const FIXTURES = [
	['image-text.png', 'png'],
	['image-itxt.png', 'png'],
	['image-ztxt.png', 'png'],
	['animated.png', 'apng'],
	['animated.webp', 'webp'],
	['audio.flac', 'flac'],
	['audio.mp3', 'mp3'],
	['audio.opus', 'opus'],
	['video.mp4', 'mp4'],
	['video.webm', 'webm']
] as const;

export function read(
	bytes: Uint8Array | ByteSource,
	name = 'test-file',
	signal = new AbortController().signal
): Promise<WorkflowFileResult> {
	return readWorkflowFile({ name, source: bytes instanceof Uint8Array ? bytesSource(bytes) : bytes }, signal);
}

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

export function pngChunk(type: string, data: Uint8Array): Uint8Array {
	const out = new Uint8Array(12 + data.length);
	const view = new DataView(out.buffer);
	view.setUint32(0, data.length);
	out.set(latin1(type), 4);
	out.set(data, 8);
	view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
	return out;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}

/** A 1×1 PNG with the given chunks between IHDR and IDAT. */
export function png(...chunks: Uint8Array[]): Uint8Array {
	const ihdr = pngChunk('IHDR', new Uint8Array([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]));
	const idat = pngChunk('IDAT', new Uint8Array(deflateSync(Buffer.from([0, 0]))));
	return concat(
		new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		ihdr,
		...chunks,
		idat,
		pngChunk('IEND', new Uint8Array(0))
	);
}

export function tEXt(key: string, value: string): Uint8Array {
	return pngChunk('tEXt', latin1(`${key}\0${value}`));
}

export function zTXt(key: string, compressed: Uint8Array): Uint8Array {
	return pngChunk('zTXt', concat(latin1(`${key}\0\0`), compressed));
}

export function iTXt(key: string, compressed: Uint8Array): Uint8Array {
	return pngChunk('iTXt', concat(latin1(`${key}\0\x01\0\0\0`), compressed));
}
