/**
 * The history file: runs of both kinds and, optionally, the bytes of their outputs. Profiles and
 * keys are never in it. Parsed here, once, before anything is written back.
 */
import { isObject, own, parseJsonWithin, type Json } from '../../core/protocol/json';
import { HISTORY_BYTES_PREFIXES, HISTORY_RECORD_PREFIXES } from '../../core/protocol/storage-keys';

export const HISTORY_FORMAT = 'runboard-history';
export const HISTORY_VERSION = 1;

export const RECORD_PREFIXES = HISTORY_RECORD_PREFIXES;
export const BYTES_PREFIXES = HISTORY_BYTES_PREFIXES;

/** A run record holds a workflow and its outputs; far deeper nesting is hostile and would overflow the stores' cloning. */
export const HISTORY_MAX_DEPTH = 96;

export interface HistoryFile {
	format: typeof HISTORY_FORMAT;
	version: typeof HISTORY_VERSION;
	exportedAt: string;
	records: Array<{ key: string; value: Json }>;
	bytes: Array<{ key: string; type: string; base64: string }>;
}

export type ParseHistoryResult = { ok: true; file: HistoryFile } | { ok: false; message: string };

const startsWithAny = (key: string, prefixes: readonly string[]) => prefixes.some((p) => key.startsWith(p));

export function parseHistoryFile(text: string): ParseHistoryResult {
	const parsed = parseJsonWithin(text, HISTORY_MAX_DEPTH);
	if (!parsed.ok)
		return {
			ok: false,
			message:
				parsed.error instanceof RangeError
					? `This history export cannot be read: ${parsed.error.message}.`
					: 'This file is not a Runboard history export (it is not JSON).'
		};
	const value = parsed.value;
	if (!isObject(value) || own(value, 'format') !== HISTORY_FORMAT)
		return { ok: false, message: 'This file is not a Runboard history export.' };
	if (own(value, 'version') !== HISTORY_VERSION)
		return {
			ok: false,
			message: `This history export has version ${String(own(value, 'version'))}; this Runboard reads version ${HISTORY_VERSION}.`
		};
	const records: HistoryFile['records'] = [];
	const rawRecords = own(value, 'records');
	for (const item of Array.isArray(rawRecords) ? rawRecords : []) {
		if (!isObject(item)) continue;
		const key = own(item, 'key');
		const record = own(item, 'value');
		if (typeof key === 'string' && startsWithAny(key, RECORD_PREFIXES) && isObject(record)) records.push({ key, value: record });
	}
	const bytes: HistoryFile['bytes'] = [];
	const rawBytes = own(value, 'bytes');
	for (const item of Array.isArray(rawBytes) ? rawBytes : []) {
		if (!isObject(item)) continue;
		const key = own(item, 'key');
		const type = own(item, 'type');
		const base64 = own(item, 'base64');
		if (typeof key === 'string' && startsWithAny(key, BYTES_PREFIXES) && typeof base64 === 'string')
			bytes.push({ key, type: typeof type === 'string' ? type : 'application/octet-stream', base64 });
	}
	return {
		ok: true,
		file: { format: HISTORY_FORMAT, version: HISTORY_VERSION, exportedAt: String(own(value, 'exportedAt') ?? ''), records, bytes }
	};
}

export function toBase64(bytes: Uint8Array): string {
	let binary = '';
	for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
	return btoa(binary);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
	try {
		return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
	} catch {
		return undefined;
	}
}
