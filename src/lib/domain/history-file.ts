/**
 * The history file: runs of both kinds and, optionally, the bytes of their outputs. Profiles and
 * keys are never in it. Parsed here, once, before anything is written back.
 */
import { isObject, type Json } from '../wire/json';
import { HISTORY_BYTES_PREFIXES, HISTORY_RECORD_PREFIXES } from './storage-keys';

export const HISTORY_FORMAT = 'runboard-history';
export const HISTORY_VERSION = 1;

export const RECORD_PREFIXES = HISTORY_RECORD_PREFIXES;
export const BYTES_PREFIXES = HISTORY_BYTES_PREFIXES;

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
	let value: Json;
	try {
		value = JSON.parse(text) as Json;
	} catch {
		return { ok: false, message: 'This file is not a Runboard history export (it is not JSON).' };
	}
	if (!isObject(value) || value['format'] !== HISTORY_FORMAT) return { ok: false, message: 'This file is not a Runboard history export.' };
	if (value['version'] !== HISTORY_VERSION)
		return {
			ok: false,
			message: `This history export has version ${String(value['version'])}; this Runboard reads version ${HISTORY_VERSION}.`
		};
	const records: HistoryFile['records'] = [];
	for (const item of Array.isArray(value['records']) ? value['records'] : []) {
		if (isObject(item) && typeof item['key'] === 'string' && startsWithAny(item['key'], RECORD_PREFIXES) && isObject(item['value'])) {
			records.push({ key: item['key'], value: item['value'] });
		}
	}
	const bytes: HistoryFile['bytes'] = [];
	for (const item of Array.isArray(value['bytes']) ? value['bytes'] : []) {
		if (
			isObject(item) &&
			typeof item['key'] === 'string' &&
			startsWithAny(item['key'], BYTES_PREFIXES) &&
			typeof item['base64'] === 'string'
		) {
			bytes.push({
				key: item['key'],
				type: typeof item['type'] === 'string' ? item['type'] : 'application/octet-stream',
				base64: item['base64']
			});
		}
	}
	return {
		ok: true,
		file: { format: HISTORY_FORMAT, version: HISTORY_VERSION, exportedAt: String(value['exportedAt'] ?? ''), records, bytes }
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
