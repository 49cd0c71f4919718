/**
 * Reading a zip from a stranger. The central directory is the index (entries, sizes, where each
 * one starts); every number in it is checked against the file and the limits before a byte is
 * inflated, and the inflated sizes are counted again while inflating, since declared sizes can lie.
 * Refused outright: several disks, ZIP64, encryption, methods other than store and deflate,
 * duplicate names, and any entry path that leaves the bundle.
 */
import { inflateRawCapped } from './capped-inflate';
import { entryPathProblem, shown } from './entry-path';
import type { BundleLimits } from './limits';
import { accept, refuse, type Read } from './refusal';

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_BYTES = 22;
const CENTRAL_BYTES = 46;
const LOCAL_BYTES = 30;
const STORED = 0;
const DEFLATED = 8;

interface CentralEntry {
	name: string;
	method: number;
	compressedSize: number;
	size: number;
	localOffset: number;
}

function endOfDirectory(bytes: Uint8Array, view: DataView): number {
	const lowest = Math.max(0, bytes.length - EOCD_BYTES - 0xffff);
	for (let at = bytes.length - EOCD_BYTES; at >= lowest; at--) if (view.getUint32(at, true) === EOCD_SIGNATURE) return at;
	return -1;
}

function centralEntries(bytes: Uint8Array, limits: BundleLimits): Read<CentralEntry[]> {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const eocd = bytes.length >= EOCD_BYTES ? endOfDirectory(bytes, view) : -1;
	if (eocd < 0) return refuse('not-a-bundle', 'This is not a zip file: it has no zip directory at its end.');
	const disk = view.getUint16(eocd + 4, true);
	const directoryDisk = view.getUint16(eocd + 6, true);
	const onDisk = view.getUint16(eocd + 8, true);
	const count = view.getUint16(eocd + 10, true);
	const directoryBytes = view.getUint32(eocd + 12, true);
	const directoryAt = view.getUint32(eocd + 16, true);
	if (disk !== 0 || directoryDisk !== 0 || onDisk !== count)
		return refuse('format', 'The zip is split over several disks, which a bundle never is.');
	if (count === 0xffff || directoryBytes === 0xffffffff || directoryAt === 0xffffffff)
		return refuse('format', 'The zip uses ZIP64, which a bundle never needs.');
	if (count > limits.entries) return refuse('too-large', `The zip has ${count} entries; a bundle has at most ${limits.entries}.`);
	if (directoryAt + directoryBytes > eocd) return refuse('corrupt', 'The zip directory points outside the file.');
	const entries: CentralEntry[] = [];
	const names = new Set<string>();
	let declared = 0;
	let at = directoryAt;
	for (let i = 0; i < count; i++) {
		if (at + CENTRAL_BYTES > eocd || view.getUint32(at, true) !== CENTRAL_SIGNATURE)
			return refuse('corrupt', 'The zip directory is damaged.');
		const flags = view.getUint16(at + 8, true);
		const method = view.getUint16(at + 10, true);
		const compressedSize = view.getUint32(at + 20, true);
		const size = view.getUint32(at + 24, true);
		const nameBytes = view.getUint16(at + 28, true);
		const extraBytes = view.getUint16(at + 30, true);
		const commentBytes = view.getUint16(at + 32, true);
		const localOffset = view.getUint32(at + 42, true);
		if (at + CENTRAL_BYTES + nameBytes > eocd) return refuse('corrupt', 'The zip directory is damaged.');
		const name = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(at + CENTRAL_BYTES, at + CENTRAL_BYTES + nameBytes));
		at += CENTRAL_BYTES + nameBytes + extraBytes + commentBytes;
		const pathProblem = entryPathProblem(name, limits.pathChars);
		if (pathProblem) return refuse('path', `Refused: ${pathProblem}.`);
		if (names.has(name)) return refuse('format', `The zip has two entries named "${shown(name)}".`);
		names.add(name);
		if (flags & 1) return refuse('format', `The entry "${shown(name)}" is encrypted; a bundle never is.`);
		if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff)
			return refuse('format', 'The zip uses ZIP64, which a bundle never needs.');
		if (method !== STORED && method !== DEFLATED)
			return refuse('format', `The entry "${shown(name)}" is compressed with method ${method}; a bundle uses only store and deflate.`);
		if (method === STORED && compressedSize !== size) return refuse('corrupt', `The entry "${shown(name)}" has two different sizes.`);
		if (size > limits.entryBytes)
			return refuse(
				'too-large',
				`The entry "${shown(name)}" inflates to ${mib(size)}; one entry may be at most ${mib(limits.entryBytes)}.`
			);
		declared += size;
		if (declared > limits.totalBytes)
			return refuse('too-large', `The bundle inflates to more than ${mib(limits.totalBytes)}, the most Runboard opens.`);
		if (name.endsWith('/')) continue;
		entries.push({ name, method, compressedSize, size, localOffset });
	}
	return accept(entries);
}

export function mib(bytes: number): string {
	return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

/** Every file entry of the zip, inflated, by name; or the first reason to refuse it. */
export function readZip(bytes: Uint8Array, limits: BundleLimits): Read<Map<string, Uint8Array>> {
	if (bytes.length > limits.fileBytes)
		return refuse('too-large', `The file is ${mib(bytes.length)}; a bundle may be at most ${mib(limits.fileBytes)}.`);
	const listed = centralEntries(bytes, limits);
	if (!listed.ok) return listed;
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const files = new Map<string, Uint8Array>();
	let total = 0;
	for (const entry of listed.value) {
		const at = entry.localOffset;
		if (at + LOCAL_BYTES > bytes.length || view.getUint32(at, true) !== LOCAL_SIGNATURE)
			return refuse('corrupt', `The entry "${shown(entry.name)}" is not where the zip directory says.`);
		const start = at + LOCAL_BYTES + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
		const end = start + entry.compressedSize;
		if (end > bytes.length) return refuse('corrupt', `The entry "${shown(entry.name)}" runs past the end of the file.`);
		const raw = bytes.subarray(start, end);
		const budget = Math.min(limits.entryBytes, limits.totalBytes - total);
		let content: Uint8Array;
		if (entry.method === STORED) content = raw.slice();
		else {
			const inflated = inflateRawCapped(raw, budget);
			if (!inflated.ok && inflated.kind === 'too-large')
				return refuse(
					'too-large',
					`The entry "${shown(entry.name)}" inflates past ${mib(budget)}, more than its zip directory says: refused as a zip bomb.`
				);
			if (!inflated.ok) return refuse('corrupt', `The entry "${shown(entry.name)}" cannot be inflated: ${inflated.reason}.`);
			content = inflated.bytes;
		}
		if (content.length !== entry.size) return refuse('corrupt', `The entry "${shown(entry.name)}" is not the size its zip directory says.`);
		total += content.length;
		files.set(entry.name, content);
	}
	return accept(files);
}
