/**
 * Signed URLs in the shape of GCS V4 query signing, so a client can read the expiry from the URL:
 * `X-Goog-Algorithm`, `X-Goog-Date` (UTC, yyyymmddThhmmssZ), `X-Goog-Expires` (seconds),
 * `X-Goog-SignedHeaders`, `X-Goog-Signature` (hex HMAC-SHA256 over the path and those values).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function formatGoogDate(ms: number): string {
	return new Date(ms)
		.toISOString()
		.replace(/[-:]/g, '')
		.replace(/\.\d{3}/, '');
}

export function parseGoogDate(text: string): number | undefined {
	const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
	if (!m) return undefined;
	return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

export type VerifyResult = { ok: true } | { ok: false; reason: 'missing' | 'tampered' | 'expired' };

export class UrlSigner {
	private readonly secret = randomBytes(32);

	private mac(path: string, date: string, expires: string): string {
		return createHmac('sha256', this.secret).update(`GOOG4-HMAC-SHA256\n${path}\n${date}\n${expires}\nhost`).digest('hex');
	}

	/** Signs `path` (with its own query, if any) on `origin`, valid `lifetimeSeconds` from `nowMs`. */
	sign(origin: string, path: string, lifetimeSeconds: number, nowMs: number): string {
		const date = formatGoogDate(nowMs);
		const expires = String(Math.max(1, Math.floor(lifetimeSeconds)));
		const url = new URL(path, origin);
		url.searchParams.set('X-Goog-Algorithm', 'GOOG4-HMAC-SHA256');
		url.searchParams.set('X-Goog-Date', date);
		url.searchParams.set('X-Goog-Expires', expires);
		url.searchParams.set('X-Goog-SignedHeaders', 'host');
		url.searchParams.set('X-Goog-Signature', this.mac(url.pathname, date, expires));
		return url.toString();
	}

	verify(url: URL, nowMs: number): VerifyResult {
		const date = url.searchParams.get('X-Goog-Date');
		const expires = url.searchParams.get('X-Goog-Expires');
		const signature = url.searchParams.get('X-Goog-Signature');
		if (!date || !expires || !signature) return { ok: false, reason: 'missing' };
		const expected = Buffer.from(this.mac(url.pathname, date, expires), 'hex');
		const given = Buffer.from(signature, 'hex');
		if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'tampered' };
		const start = parseGoogDate(date);
		if (start === undefined || nowMs > start + Number(expires) * 1000) return { ok: false, reason: 'expired' };
		return { ok: true };
	}
}
