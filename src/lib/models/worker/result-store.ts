/**
 * Saves a run's result: the body's bytes first, then what is inside it (JSON parsed, asset URLs
 * with their expiry and their bytes fetched without any credential, inline base64 decoded), so
 * results outlive their signed URLs.
 */
import { decodeBase64, findMedia, kindOfMime, mediaKindOfType, urlExpiry } from '../rules/model-assets';
import type { ModelResult, StoredAsset } from '../rules/model-run';
import { tryParseJson } from '../../core/protocol/json';
import type { KeyValueStore } from '../../core/worker/kv-store';
import { MODEL_BYTES_KEY } from '../../core/protocol/storage-keys';
import { isQuotaError } from '../../core/worker/quota';

export const BYTES_KEY = MODEL_BYTES_KEY;
const MAX_ASSETS = 16;

export type AssetFetch = (url: string) => Promise<Uint8Array | { notSaved: string }>;

/** Fetches an asset with no credential at all: signed URLs carry their own authority. */
export const fetchAsset: AssetFetch = async (url) => {
	try {
		const res = await fetch(url, { credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' });
		if (!res.ok) return { notSaved: `the asset host answered HTTP ${res.status}` };
		return new Uint8Array(await res.arrayBuffer());
	} catch {
		const kept = await keepOpaque(url);
		return {
			notSaved: `the asset host does not let this app read its bytes (no CORS headers); the browser shows it directly until the link expires${kept ? ', and an opaque copy is kept in the offline cache' : ''}`
		};
	}
};

/** Cache Storage shared with the service worker: opaque copies of assets on hosts without CORS. */
export const MEDIA_CACHE = 'runboard-model-media';

/** Keeps an opaque copy (no credentials, no CORS) that a service worker can answer `<img>` requests from. */
async function keepOpaque(url: string): Promise<boolean> {
	if (typeof caches === 'undefined') return false;
	try {
		const res = await fetch(url, { mode: 'no-cors', credentials: 'omit', referrerPolicy: 'no-referrer' });
		await (await caches.open(MEDIA_CACHE)).put(url, res);
		return true;
	} catch {
		return false;
	}
}

const STORAGE_FULL = 'storage on this device is full';

/**
 * Saves bytes unless the device is out of space: then the caller keeps the link (or the parsed
 * value) in the run's record instead, and the person is told. Any other failure is thrown.
 */
async function saveBytes(kv: KeyValueStore, key: string, bytes: Uint8Array, full: { seen: boolean }): Promise<boolean> {
	try {
		await kv.set(key, bytes);
		return true;
	} catch (error) {
		if (!isQuotaError(error)) throw error;
		full.seen = true;
		return false;
	}
}

export async function storeResult(
	kv: KeyValueStore,
	runId: string,
	bytes: Uint8Array,
	contentType: string,
	getAsset: AssetFetch,
	full: { seen: boolean } = { seen: false }
): Promise<ModelResult> {
	const bodyKey = `${BYTES_KEY}${runId}:body`;
	const bytesKey = (await saveBytes(kv, bodyKey, bytes, full)) ? bodyKey : '';
	const result: ModelResult = { contentType, size: bytes.byteLength, bytesKey, assets: [] };
	const kind = mediaKindOfType(contentType);
	if (kind === 'json' || kind === 'text') {
		const text = new TextDecoder().decode(bytes);
		if (kind === 'text') {
			result.text = text;
			return result;
		}
		const json = tryParseJson(text);
		if (json === undefined) {
			result.text = text;
			return result;
		}
		result.json = json;
		const found = findMedia(json).slice(0, MAX_ASSETS);
		for (const [i, asset] of found.entries()) {
			const stored: StoredAsset = { path: asset.path, kind: asset.kind, source: asset.source, ...(asset.mime ? { mime: asset.mime } : {}) };
			const key = `${BYTES_KEY}${runId}:${i}`;
			if (asset.source === 'inline' && asset.base64) {
				const decoded = decodeBase64(asset.base64);
				if (!decoded) stored.notSaved = 'the inline data is not valid base64';
				else if (await saveBytes(kv, key, decoded, full)) Object.assign(stored, { bytesKey: key, size: decoded.byteLength });
				else stored.notSaved = STORAGE_FULL;
			} else if (asset.url) {
				stored.url = asset.url;
				const expiresAt = urlExpiry(asset.url);
				if (expiresAt !== undefined) stored.expiresAt = expiresAt;
				const got = await getAsset(asset.url);
				if (!(got instanceof Uint8Array)) stored.notSaved = got.notSaved;
				else if (await saveBytes(kv, key, got, full)) Object.assign(stored, { bytesKey: key, size: got.byteLength });
				else stored.notSaved = STORAGE_FULL;
			}
			result.assets.push(stored);
		}
		return result;
	}
	const mime = contentType.split(';')[0]!.trim();
	const body: StoredAsset = { path: '', kind: kindOfMime(mime) ?? 'file', mime, source: 'body', size: bytes.byteLength };
	result.assets.push(bytesKey ? { ...body, bytesKey } : { ...body, notSaved: STORAGE_FULL });
	return result;
}

/**
 * Keeps a successful reply's result. The run succeeded (and was charged) even when this device
 * cannot keep its bytes (storage full): then the warning says so, and how to collect it again.
 */
export async function keepResult(
	kv: KeyValueStore,
	runId: string,
	reply: { header(name: string): string | null; body: string; bytes?: Uint8Array },
	getAsset: AssetFetch
): Promise<{ result: ModelResult; warning?: string }> {
	const contentType = reply.header('Content-Type') ?? 'application/octet-stream';
	const bytes = reply.bytes ?? new TextEncoder().encode(reply.body);
	const full = { seen: false };
	try {
		const result = await storeResult(kv, runId, bytes, contentType, getAsset, full);
		if (!full.seen) return { result };
		return {
			result,
			warning:
				'Storage on this device is full: the result is shown from its links, and its bytes were not kept. Free space in Settings → Storage.'
		};
	} catch (error) {
		return {
			result: { contentType, size: bytes.byteLength, bytesKey: '', assets: [] },
			warning: `The result could not be saved on this device (${String(error)}); free some space and retry with the same key to collect it again while the service keeps it.`
		};
	}
}
