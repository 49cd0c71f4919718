/**
 * Result assets, pure: when a signed URL expires (read from its own parameters), and where the
 * media sits inside a JSON result (asset URLs and inline `bytesBase64Encoded`).
 */
import type { Json } from '../../core/protocol/json';

/** GCS/AWS V4 date `yyyymmddThhmmssZ` to epoch ms. */
function parseV4Date(text: string): number | undefined {
	const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
	if (!m) return undefined;
	const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
	return Date.UTC(y, mo - 1, d, h, mi, s);
}

/**
 * The expiry a signed URL carries: `X-Goog-Date` + `X-Goog-Expires`, `X-Amz-Date` + `X-Amz-Expires`,
 * or `Expires` (unix seconds, CloudFront style). Undefined when the URL does not say ("expiry unknown").
 */
export function urlExpiry(url: string): number | undefined {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return undefined;
	}
	const q = parsed.searchParams;
	for (const prefix of ['X-Goog', 'X-Amz']) {
		const date = q.get(`${prefix}-Date`);
		const expires = q.get(`${prefix}-Expires`);
		if (date && expires && /^\d+$/.test(expires)) {
			const start = parseV4Date(date);
			if (start !== undefined) return start + Number(expires) * 1000;
		}
	}
	const expires = q.get('Expires');
	if (expires && /^\d{9,11}$/.test(expires)) return Number(expires) * 1000;
	return undefined;
}

export function expiryWords(expiresAt: number | undefined, now: number): string {
	if (expiresAt === undefined) return 'expiry unknown';
	const left = expiresAt - now;
	if (left <= 0) return `link expired ${new Date(expiresAt).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
	const h = Math.floor(left / 3_600_000);
	const m = Math.floor((left % 3_600_000) / 60_000);
	return `link expires in ${h > 0 ? `${h} h ` : ''}${m} min`;
}

export type { MediaKind } from '../../core/protocol/model-run';
import type { MediaKind } from '../../core/protocol/model-run';

export interface FoundAsset {
	/** Where in the JSON result, for labels ("images.0.url"). */
	path: string;
	source: 'url' | 'inline';
	url?: string;
	base64?: string;
	mime?: string;
	kind: MediaKind;
}

const EXT_KIND: Array<[RegExp, MediaKind, string]> = [
	[/\.(png)$/i, 'image', 'image/png'],
	[/\.(jpe?g)$/i, 'image', 'image/jpeg'],
	[/\.(webp)$/i, 'image', 'image/webp'],
	[/\.(gif)$/i, 'image', 'image/gif'],
	[/\.(mp4|m4v)$/i, 'video', 'video/mp4'],
	[/\.(webm)$/i, 'video', 'video/webm'],
	[/\.(wav)$/i, 'audio', 'audio/wav'],
	[/\.(mp3)$/i, 'audio', 'audio/mpeg'],
	[/\.(safetensors|bin|zip)$/i, 'file', 'application/octet-stream']
];

export function kindOfMime(mime: string | undefined): MediaKind | undefined {
	if (!mime) return undefined;
	const top = mime.split('/')[0];
	return top === 'image' || top === 'video' || top === 'audio' ? top : undefined;
}

function kindOfUrl(url: string, keyHint: string): { kind: MediaKind; mime?: string } | undefined {
	let path = url;
	try {
		path = new URL(url).pathname;
	} catch {
		return undefined;
	}
	for (const [re, kind, mime] of EXT_KIND) if (re.test(path)) return { kind, mime };
	if (/video|clip/i.test(keyHint)) return { kind: 'video' };
	if (/audio|speech|voice/i.test(keyHint)) return { kind: 'audio' };
	if (/image|frame|thumb|draft|mask/i.test(keyHint)) return { kind: 'image' };
	if (/url|uri/i.test(keyHint)) return { kind: 'file' };
	return undefined;
}

function isObj(v: Json | undefined): v is { [k: string]: Json } {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every asset URL and inline media in a JSON result, in document order. */
export function findMedia(json: Json, limit = 64): FoundAsset[] {
	const out: FoundAsset[] = [];
	const visit = (value: Json, path: string[], key: string, siblings: { [k: string]: Json } | undefined, depth: number): void => {
		if (out.length >= limit || depth > 12) return;
		if (typeof value === 'string') {
			const siblingMime = siblings
				? (['content_type', 'mimeType', 'mime_type', 'contentType'].map((k) => siblings[k]).find((v) => typeof v === 'string') as
						string | undefined)
				: undefined;
			if (key === 'bytesBase64Encoded' || key === 'b64_json') {
				const mime = siblingMime ?? 'application/octet-stream';
				out.push({ path: path.join('.'), source: 'inline', base64: value, mime, kind: kindOfMime(mime) ?? 'file' });
				return;
			}
			if (/^https?:\/\//i.test(value)) {
				const k = kindOfUrl(value, `${key} ${path.join(' ')}`);
				if (!k) return;
				const mime = siblingMime ?? k.mime;
				out.push({ path: path.join('.'), source: 'url', url: value, ...(mime ? { mime } : {}), kind: kindOfMime(mime) ?? k.kind });
			}
			return;
		}
		if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, String(i)], key, undefined, depth + 1));
		else if (isObj(value)) for (const [k, v] of Object.entries(value)) visit(v, [...path, k], k, value, depth + 1);
	};
	visit(json, [], '', undefined, 0);
	return out;
}

/** Decodes base64 (standard or URL-safe) into bytes; undefined when it is not base64. */
export function decodeBase64(text: string): Uint8Array | undefined {
	try {
		const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/').replace(/\s+/g, ''));
		const out = new Uint8Array(bin.length);
		for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
		return out;
	} catch {
		return undefined;
	}
}

export function mediaKindOfType(contentType: string): MediaKind | 'json' | 'text' {
	const t = contentType.split(';')[0]!.trim().toLowerCase();
	if (t === 'application/json' || t.endsWith('+json')) return 'json';
	if (t.startsWith('text/')) return 'text';
	return kindOfMime(t) ?? 'file';
}
